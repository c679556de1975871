// The one piece of Markdown the dashboard renders: `code spans`. Criteria, reasons, summaries and
// fix prompts are written with backticks around names (`acme/api`, `#release-4-2`), and showing
// the backticks literally reads as noise. Everything else stays text: each part goes through
// hono's html helper, which escapes it, so a criterion holding `<script>` shows as text.
import { html } from "hono/html";
import type { Html } from "./layout";

export interface Segment {
  text: string;
  code: boolean;
}

// A code span: one backtick, at least one character that is neither a backtick nor a newline, one
// backtick. Fenced blocks (```) and unpaired backticks are left as they are.
const CODE_SPAN = /`([^`\n]+)`/g;

/** The text split into plain and code parts, in order; the backticks themselves are dropped. */
export function codeSpans(text: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(CODE_SPAN)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ text: text.slice(last, at), code: false });
    out.push({ text: m[1], code: true });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), code: false });
  return out;
}

/** Text with its code spans as <code>, for HTML (also inside <pre>). */
export function inlineMarkdown(text: string | null | undefined): Html {
  return html`${codeSpans(text ?? "").map((s) => (s.code ? html`<code>${s.text}</code>` : html`${s.text}`))}`;
}

/** The same text without its backticks, for attributes (title=) and other plain-text places. */
export const plainText = (text: string | null | undefined) =>
  codeSpans(text ?? "")
    .map((s) => s.text)
    .join("");

/**
 * Text for an SVG <text>: code spans as a monospace <tspan>, cut to at most `max` visible
 * characters (an ellipsis ends a cut label; its full text is the mark's <title>).
 */
export function svgLabel(text: string, max: number): Html {
  const parts: Html[] = [];
  let room = max;
  for (const s of codeSpans(text)) {
    if (room <= 0) break;
    const cut = s.text.length > room ? `${s.text.slice(0, Math.max(0, room - 1))}…` : s.text;
    room -= s.text.length;
    parts.push(s.code ? html`<tspan class="code">${cut}</tspan>` : html`${cut}`);
  }
  return html`${parts}`;
}
