// A send-as signature as Gmail keeps it. Gmail "will sanitize the HTML before saving it with the
// alias" (users.settings.sendAs: `signature`, googleapis 188 gmail/v1.d.ts); its sanitizer is not
// published, so the twin models a conservative one and NOTES.md declares the difference:
// - elements a browser runs or reads as raw text go with their content: script, style, and the
//   raw-text elements (iframe, noembed, noframes, noscript, plaintext, textarea, title, xmp), whose
//   content could otherwise hide markup from this reading and show it to a browser's;
// - tags that load or point elsewhere go, their content kept (applet, base, embed, frame,
//   frameset, link, meta, object);
// - comments, `<!…>` and `<?…>` go;
// - event-handler attributes (`on…`) go, and any attribute whose value is a `javascript:` or
//   `vbscript:` URL (entities and blanks aside, as a browser reads them);
// - a `<` that opens no tag is written `&lt;`, so what is removed cannot join what is left into a
//   new tag: sanitizing a sanitized signature changes nothing.
// Everything else is kept byte for byte. One pass over the text, reading tags as the HTML
// tokenizer does (a tag name runs to a blank, `/` or `>`); no regular expression is built from the
// text, and the work is linear in its length.

/** Elements dropped with everything up to their end tag: script and style, and what browsers read as raw text. */
const DROPPED_WITH_CONTENT = new Set([
  "script",
  "style",
  "iframe",
  "noembed",
  "noframes",
  "noscript",
  "plaintext",
  "textarea",
  "title",
  "xmp",
]);

/** Tags dropped alone (their content, if any, stays): what embeds, loads or redirects. */
const DROPPED_TAGS = new Set(["applet", "base", "embed", "frame", "frameset", "link", "meta", "object"]);

const isBlank = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\f" || c === "\r";
const isAlpha = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");

interface Attribute {
  /** The name as written, and lower case. */
  rawName: string;
  name: string;
  /** The value as written between its quotes (references not decoded); "" when it has none. */
  value: string;
}

interface Tag {
  /** The name as written, and lower case. */
  rawName: string;
  name: string;
  closing: boolean;
  /** Written `…/>`. */
  selfClosing: boolean;
  attributes: Attribute[];
  /** The index just past the tag's `>`; -1 when the text ends inside the tag. */
  end: number;
}

/** Reads the tag opening at `at` (`<` followed by a letter, or `</` and a letter), as the HTML tokenizer reads it. */
function readTag(html: string, at: number): Tag {
  const closing = html[at + 1] === "/";
  let i = at + (closing ? 2 : 1);
  const nameStart = i;
  while (i < html.length && !isBlank(html[i]) && html[i] !== "/" && html[i] !== ">") i++;
  const rawName = html.slice(nameStart, i);
  const name = rawName.toLowerCase();
  const attributes: Attribute[] = [];
  const ended = (end: number, selfClosing = false): Tag => ({ rawName, name, closing, selfClosing, attributes, end });
  while (i < html.length) {
    const c = html[i];
    if (c === ">") return ended(i + 1);
    if (c === "/" && html[i + 1] === ">") return ended(i + 2, true);
    if (isBlank(c) || c === "/") {
      i++;
      continue;
    }
    const start = i;
    // The first character of a name may be `=`; then the name runs to a blank, `/`, `>` or `=`.
    i++;
    while (i < html.length && !isBlank(html[i]) && html[i] !== "/" && html[i] !== ">" && html[i] !== "=") i++;
    const attrName = html.slice(start, i);
    let j = i;
    while (j < html.length && isBlank(html[j])) j++;
    if (html[j] !== "=") {
      attributes.push({ rawName: attrName, name: attrName.toLowerCase(), value: "" });
      continue;
    }
    j++;
    while (j < html.length && isBlank(html[j])) j++;
    const quote = html[j];
    let value: string;
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, j + 1);
      if (close < 0) return ended(-1);
      value = html.slice(j + 1, close);
      i = close + 1;
    } else {
      const valueStart = j;
      while (j < html.length && !isBlank(html[j]) && html[j] !== ">") j++;
      value = html.slice(valueStart, j);
      i = j;
    }
    attributes.push({ rawName: attrName, name: attrName.toLowerCase(), value });
  }
  return ended(-1);
}

/** Character references a script URL could hide behind (`&#106;`, `&#x6A;`, `&colon;`, `&Tab;`, `&NewLine;`), decoded. */
function decodeReferences(value: string): string {
  let out = "";
  let i = 0;
  while (i < value.length) {
    if (value[i] !== "&") {
      out += value[i++];
      continue;
    }
    if (value[i + 1] === "#") {
      const hex = value[i + 2] === "x" || value[i + 2] === "X";
      let j = i + (hex ? 3 : 2);
      const digitsStart = j;
      while (j < value.length && j - digitsStart < 8 && /[0-9a-fA-F]/.test(value[j]) && (hex || /[0-9]/.test(value[j]))) j++;
      if (j > digitsStart) {
        const code = Number.parseInt(value.slice(digitsStart, j), hex ? 16 : 10);
        out += code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
        i = value[j] === ";" ? j + 1 : j;
        continue;
      }
    }
    const named = ["&colon;", "&tab;", "&newline;"].find((n) => value.slice(i, i + n.length).toLowerCase() === n);
    if (named) {
      out += named === "&colon;" ? ":" : " ";
      i += named.length;
      continue;
    }
    out += value[i++];
  }
  return out;
}

/** Whether an attribute value is a script URL as a browser would read it (references decoded, blanks and controls ignored). */
function isScriptUrl(value: string): boolean {
  let bare = "";
  for (const c of decodeReferences(value)) {
    if (c.charCodeAt(0) > 0x20) bare += c.toLowerCase();
    if (bare.length >= 11) break;
  }
  return bare.startsWith("javascript:") || bare.startsWith("vbscript:");
}

const unsafeAttribute = (a: Attribute) => a.name.startsWith("on") || isScriptUrl(a.value);

/**
 * The tag as written when all its attributes are safe; otherwise written again without the unsafe
 * ones, every kept one as `name="value"` (a bare name next to a removed one could otherwise take
 * a later `=value` as its own). A `"` in a value is written `&quot;`, which a browser reads back as `"`.
 */
function keptTag(html: string, at: number, tag: Tag): string {
  if (!tag.attributes.some(unsafeAttribute)) return html.slice(at, tag.end);
  if (tag.closing) return `</${tag.rawName}>`;
  let out = `<${tag.rawName}`;
  for (const a of tag.attributes) if (!unsafeAttribute(a)) out += ` ${a.rawName}="${a.value.replaceAll('"', "&quot;")}"`;
  return `${out}${tag.selfClosing ? " />" : ">"}`;
}

/** Where the raw content of `name` opened before `from` ends: just past its end tag's `>`, or the text's end. */
function endOfContent(html: string, name: string, from: number): number {
  if (name === "plaintext") return html.length;
  // Each `</` is looked at once, its name compared case aside (ASCII, as the tokenizer does).
  for (let at = html.indexOf("</", from); at >= 0; at = html.indexOf("</", at + 2)) {
    const after = at + 2 + name.length;
    if (html.slice(at + 2, after).toLowerCase() !== name) continue;
    const next = html[after];
    if (next === undefined || isBlank(next) || next === "/" || next === ">") {
      const gt = html.indexOf(">", after);
      return gt < 0 ? html.length : gt + 1;
    }
  }
  return html.length;
}

/** The signature as the twin saves it (see the top of this file). */
export function sanitizeSignature(html: string): string {
  if (!html.includes("<")) return html;
  let out = "";
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt < 0) {
      out += html.slice(i);
      break;
    }
    out += html.slice(i, lt);
    const next = html[lt + 1] ?? "";
    if (html.startsWith("<!--", lt)) {
      const close = html.indexOf("-->", lt + 4);
      i = close < 0 ? html.length : close + 3;
    } else if (next === "!" || next === "?") {
      const close = html.indexOf(">", lt + 2);
      i = close < 0 ? html.length : close + 1;
    } else if (isAlpha(next) || (next === "/" && isAlpha(html[lt + 2] ?? ""))) {
      const tag = readTag(html, lt);
      if (tag.end < 0) break; // the text ends inside a tag, which a browser drops too
      if (DROPPED_WITH_CONTENT.has(tag.name)) i = tag.closing ? tag.end : endOfContent(html, tag.name, tag.end);
      else if (DROPPED_TAGS.has(tag.name)) i = tag.end;
      else {
        out += keptTag(html, lt, tag);
        i = tag.end;
      }
    } else {
      out += "&lt;";
      i = lt + 1;
    }
  }
  return out;
}
