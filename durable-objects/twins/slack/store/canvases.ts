// Canvases as the twin keeps them: a canvas is a file of filetype "quip" (as Slack files one),
// its title the file's title and its body the file's content, in canvas markdown. Its sections
// are worked out from that markdown whenever they are needed, so nothing about them is stored or
// exported apart from the file: a heading is a section of its own, and so is each block the
// markdown separates by blank lines (a paragraph, a whole list, a table, a fenced code block).
// A section's id (`temp:C:` and 28 characters, the form docs.slack.dev's canvases.sections.lookup
// example shows) is derived from the canvas, the section's markdown and how many identical
// sections precede it: a section keeps its id while it is unchanged, and a changed one gets a new
// id, as Slack's section ids change after an update.

/** One section of a canvas: its id and its markdown. */
export interface CanvasSection {
  id: string;
  markdown: string;
}

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^(#{1,6})\s/;

/** The canvas markdown's blocks, in order. */
function blocksOf(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fenced = false;
  const flush = () => {
    if (current.length) blocks.push(current.join("\n"));
    current = [];
  };
  for (const line of markdown.replace(/\r\n?/g, "\n").split("\n")) {
    if (FENCE.test(line)) {
      if (!fenced) flush();
      current.push(line);
      fenced = !fenced;
      if (!fenced) flush();
      continue;
    }
    if (fenced) {
      current.push(line);
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    if (HEADING.test(line)) {
      flush();
      blocks.push(line);
      continue;
    }
    current.push(line);
  }
  flush();
  return blocks;
}

const ALPHABET = "0123456789abcdefABCDEF";

/** 28 characters from a string, stable (FNV-1a, re-seeded for each character). */
function digest(input: string): string {
  let out = "";
  let h = 0x811c9dc5;
  for (let i = 0; i < input.length; i++) h = Math.imul(h ^ input.charCodeAt(i), 0x01000193) >>> 0;
  for (let i = 0; i < 28; i++) {
    h = Math.imul(h ^ (i + 1), 0x01000193) >>> 0;
    h = (h ^ (h >>> 13)) >>> 0;
    out += ALPHABET[h % ALPHABET.length];
  }
  return out;
}

const sectionId = (canvas: string, markdown: string, nth: number) => `temp:C:${digest(`${canvas}\u0000${nth}\u0000${markdown}`)}`;

/** The canvas's body sections. */
export function sectionsOf(canvas: string, markdown: string): CanvasSection[] {
  const seen = new Map<string, number>();
  return blocksOf(markdown).map((block) => {
    const nth = seen.get(block) ?? 0;
    seen.set(block, nth + 1);
    return { id: sectionId(canvas, block, nth), markdown: block };
  });
}

/** The id the canvas's title answers to, as a section (Slack's MCP server lists the title first). */
export const titleSectionId = (canvas: string, title: string) => sectionId(canvas, `\u0001title\u0001${title}`, 0);

/** Markdown again from sections: blocks separated by a blank line. */
export const markdownOf = (sections: readonly { markdown: string }[]) =>
  sections
    .map((s) => s.markdown.trim())
    .filter(Boolean)
    .join("\n\n");

/** A section's heading level (1-3 as `h1`…`h3`), or undefined for any other block. */
export function headingOf(markdown: string): "h1" | "h2" | "h3" | undefined {
  const level = HEADING.exec(markdown)?.[1]?.length;
  return level === 1 ? "h1" : level === 2 ? "h2" : level === 3 ? "h3" : undefined;
}
