// Bytes in the string-shaped places a twin has (request and response bodies, SQLite text, JSON
// exports): base64 both ways, "binary strings" (one char per byte, what multipart parsing of a raw
// body needs), and strict UTF-8 decoding that says when bytes are not text.

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
