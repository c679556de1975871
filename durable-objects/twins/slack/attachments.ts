// Legacy secondary attachments as Slack documents them ("Reference: secondary message
// attachments", docs.slack.dev/messaging/formatting-message-text#attachments): at most 100 on a
// message; the text fields are strings, `fields` a list of {title, value, short}, `mrkdwn_in` a
// list of field names, `ts` a number, `color` good/warning/danger or a hex code; blocks inside are
// Block Kit's. Fields Slack does not know are kept as sent. Slack answers each kept attachment with
// an `id` (its place, from 1) and its hex color without `#`.
import { blockProblems } from "./blocks";

type Json = Record<string, unknown>;

export const MAX_ATTACHMENTS = 100;

const TEXT_FIELDS = [
  "fallback",
  "color",
  "pretext",
  "author_name",
  "author_link",
  "author_icon",
  "title",
  "title_link",
  "text",
  "image_url",
  "thumb_url",
  "footer",
  "footer_icon",
  "callback_id",
] as const;

const COLOR = /^(?:good|warning|danger|#?[0-9a-fA-F]{6}|#?[0-9a-fA-F]{3})$/;

const at = (i: number, key: string) => `[json-pointer:/attachments/${i}/${key}]`;

function fieldProblems(fields: unknown, i: number): string[] {
  if (!Array.isArray(fields)) return [`must provide an array ${at(i, "fields")}`];
  const out: string[] = [];
  for (const [j, f] of fields.entries()) {
    const where = `fields/${j}`;
    if (typeof f !== "object" || f === null || Array.isArray(f)) {
      out.push(`must provide an object ${at(i, where)}`);
      continue;
    }
    const field = f as Json;
    for (const key of ["title", "value"])
      if (field[key] !== undefined && typeof field[key] !== "string") out.push(`must be a string ${at(i, `${where}/${key}`)}`);
    if (field.short !== undefined && typeof field.short !== "boolean") out.push(`must be a boolean ${at(i, `${where}/short`)}`);
  }
  return out;
}

/** One attachment's problems, in Block Kit's sentence form. */
function oneAttachment(a: Json, i: number): string[] {
  const out: string[] = [];
  for (const key of TEXT_FIELDS) if (a[key] !== undefined && typeof a[key] !== "string") out.push(`must be a string ${at(i, key)}`);
  if (typeof a.color === "string" && a.color !== "" && !COLOR.test(a.color)) {
    out.push(`must be good, warning, danger or a hex color ${at(i, "color")}`);
  }
  if (a.fields !== undefined) out.push(...fieldProblems(a.fields, i));
  const marked = a.mrkdwn_in;
  if (marked !== undefined && (!Array.isArray(marked) || marked.some((m) => typeof m !== "string"))) {
    out.push(`must provide an array of strings ${at(i, "mrkdwn_in")}`);
  }
  const ts = a.ts;
  if (ts !== undefined && typeof ts !== "number" && !(typeof ts === "string" && /^\d+(\.\d+)?$/.test(ts))) {
    out.push(`must be a number ${at(i, "ts")}`);
  }
  if (a.blocks !== undefined) out.push(...blockProblems(a.blocks, "message", `/attachments/${i}/blocks`));
  return out;
}

/** What is wrong with a message's attachments; empty when Slack takes them. */
export function attachmentProblems(attachments: readonly Json[]): string[] {
  return attachments.flatMap((a, i) => oneAttachment(a, i));
}

/** An attachment as Slack keeps and answers it: numbered from 1, its hex color without `#`. */
export function attachmentAsKept(a: Json, index: number): Json {
  const color = typeof a.color === "string" && a.color.startsWith("#") ? a.color.slice(1) : a.color;
  return { id: index + 1, ...a, ...(color !== undefined ? { color } : {}) };
}
