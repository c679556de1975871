// GitHub's Base64String: standard base64 (padding optional, whitespace ignored), read as UTF-8 text.
import { fromBase64, fromUtf8 } from "../../../kit/bytes";

export function decodeBase64Text(value: string): string | undefined {
  const clean = value.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.replace(/=+$/, "").length % 4 === 1) return undefined;
  try {
    return fromUtf8(fromBase64(clean.padEnd(Math.ceil(clean.length / 4) * 4, "=")));
  } catch {
    return undefined;
  }
}
