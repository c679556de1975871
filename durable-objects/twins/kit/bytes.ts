// Bytes in the string-shaped places a twin has (request and response bodies, SQLite text, JSON
// exports): base64 both ways and in both alphabets (without Node's Buffer), "binary strings" (one
// char per byte, what multipart parsing of a raw body needs), and UTF-8 both ways, strict when
// bytes may not be text.

export function toBase64(bytes: Uint8Array): string {
  return btoa(binaryString(bytes));
}

export const fromBase64 = (b64: string): Uint8Array => fromBinaryString(atob(b64));

/** One char per byte (U+0000 to U+00FF), built in slices so large bodies do not overflow the argument list. */
export function binaryString(bytes: Uint8Array): string {
  let out = "";
  for (let at = 0; at < bytes.length; at += 0x8000) out += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return out;
}

export const fromBinaryString = (text: string): Uint8Array => Uint8Array.from(text, (ch) => ch.charCodeAt(0));

/** The bytes as text when they are valid UTF-8; undefined when they are not (binary content). */
export function utf8OrUndefined(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Bytes of base64 or base64url text, padded or not; undefined when it is neither. Google sends
 * base64url without padding, people paste standard base64 with it, and both must decode.
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  const compact = text.replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (!/^[A-Za-z0-9+/]*$/.test(compact) || compact.length % 4 === 1) return undefined;
  return fromBinaryString(atob(compact + "=".repeat((4 - (compact.length % 4)) % 4)));
}

/** URL-safe alphabet, no padding: what Google's JSON carries for `format: byte` fields. */
export const toBase64Url = (bytes: Uint8Array) => toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export const utf8 = (text: string) => new TextEncoder().encode(text);
export const fromUtf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
