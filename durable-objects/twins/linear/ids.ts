// Linear's ids are UUID v4. Seeded objects without one get a UUID derived from their natural key
// (the same seed always boots the same ids); objects the agent creates get ids from the world's
// own counter, so a sandbox replays identically.

/** 32-bit FNV-1a of `text`, started from `basis`. */
function fnv1a(text: string, basis: number): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A UUID v4 (version and variant bits set) that is a pure function of its parts. */
export function uuidFor(...parts: string[]): string {
  const text = parts.join("\u0000");
  const hex = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b]
    .map((basis, i) => fnv1a(`${i}:${text}`, basis).toString(16).padStart(8, "0"))
    .join("");
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
