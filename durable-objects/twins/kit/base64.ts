// Base64 in both alphabets over UTF-8 text and raw bytes, without Node's Buffer: Google sends
// base64url without padding, people paste standard base64 with it, and both must decode.

/** Bytes of base64 or base64url text, padded or not; undefined when it is neither. */
export function decodeBase64(text: string): Uint8Array | undefined {
  const compact = text.replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (!/^[A-Za-z0-9+/]*$/.test(compact) || compact.length % 4 === 1) return undefined;
  const binary = atob(compact + "=".repeat((4 - (compact.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** URL-safe alphabet, no padding: what Google's JSON carries for `format: byte` fields. */
export const encodeBase64Url = (bytes: Uint8Array) => encodeBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export const utf8 = (text: string) => new TextEncoder().encode(text);
export const fromUtf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
