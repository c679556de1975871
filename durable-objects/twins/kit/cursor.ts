// Opaque list cursors: the position a page ended at (a sort key), base64-encoded with the list's
// name so a cursor from one list is not accepted by another. Clients treat them as opaque, as
// vendors ask; the twin reads them back to continue exactly after that key.
import { fromBase64, fromUtf8, toBase64, utf8 } from "./bytes";

export function encodeCursor(list: string, key: string): string {
  return toBase64(utf8(`${list}:${key}`));
}

/** The key a cursor carries; undefined when it is malformed or belongs to another list. */
export function decodeCursor(list: string, cursor: string): string | undefined {
  try {
    const text = fromUtf8(fromBase64(cursor));
    return text.startsWith(`${list}:`) ? text.slice(list.length + 1) : undefined;
  } catch {
    return undefined;
  }
}
