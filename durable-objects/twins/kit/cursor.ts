// Opaque list cursors: the position a page ended at (a sort key), base64-encoded with the list's
// name so a cursor from one list is not accepted by another. Clients treat them as opaque, as
// vendors ask; the twin reads them back to continue exactly after that key.

const toBase64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
const fromBase64 = (b64: string) => new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));

export function encodeCursor(list: string, key: string): string {
  return toBase64(`${list}:${key}`);
}

/** The key a cursor carries; undefined when it is malformed or belongs to another list. */
export function decodeCursor(list: string, cursor: string): string | undefined {
  try {
    const text = fromBase64(cursor);
    return text.startsWith(`${list}:`) ? text.slice(list.length + 1) : undefined;
  } catch {
    return undefined;
  }
}
