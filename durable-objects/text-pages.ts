// Long text handed over in pages: a Durable Object's answer (32 MiB per RPC value), a SQLite value
// (2 MB) and an encoder's input each take a bounded piece, never the whole of a large world.

/** Whether the UTF-16 code unit is the first half of a surrogate pair. */
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * The end of the page that starts at `start`: `maxChars` on, or one less where that would cut a
 * surrogate pair in two (each half alone is not text: SQLite and UTF-8 would replace it).
 */
export function pageEnd(text: string, start: number, maxChars: number): number {
  const end = Math.min(text.length, start + Math.max(2, maxChars));
  return end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

/** The text in consecutive pages of at most `maxChars` characters; an empty text is one empty page. */
export function textPages(text: string, maxChars: number): string[] {
  const pages: string[] = [];
  let start = 0;
  do {
    const end = pageEnd(text, start, maxChars);
    pages.push(text.slice(start, end));
    start = end;
  } while (start < text.length);
  return pages;
}
