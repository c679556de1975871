// Opaque pagination cursors: a small JSON value, base64url-encoded so clients treat it as a token.
// A cursor that does not decode is reported as absent; the twin decides how to refuse it.

export function encodeCursor(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function decodeCursor(cursor: string): unknown {
  try {
    const bin = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)))) as unknown;
  } catch {
    return undefined;
  }
}
