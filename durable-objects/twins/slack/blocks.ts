// Block Kit as Slack validates it: a message's (or view's) blocks are checked against the block and
// element types, their required fields and limits, and refused `invalid_blocks` with one sentence
// per problem, each ending in the JSON pointer of the value it is about. The sentences are Slack's
// own, as its answers show them:
//   - `must be more than 0 characters [json-pointer:/blocks/0/text/text]` (Slack's wording, quoted in issue 43)
//   - `must be less than 3001 characters [json-pointer:/blocks/0/text/text]`, with
//     `failed to match all allowed schemas [json-pointer:/blocks/0/text]` (recorded answers quoted in
//     several public projects; the same sentence with 151 for a header's text)
//   - `no more than 50 items allowed [json-pointer:/blocks]` (a recorded answer, 2026-10-08)
//   - `unsupported type: sections [json-pointer:/blocks/0/type]` and, in docs.slack.dev's
//     blocks.validate reference, `unsupported type: invalid` for a text object's type
//   - `must define either \`text\` or \`fields\` [json-pointer:/blocks/0/type]`
//   - `` `action_id` "x" already exists [json-pointer:/blocks/0/elements/1/action_id] ``
//     (ColeMurray/background-agents#868, quoting Slack's refusal)
//   - `invalid additional property: disabled [json-pointer:…]` (slackapi/bolt-js#1891)
//   - `missing required field: channel` is Slack's sentence for a missing argument; the twin uses
//     it for a block's missing required field too (not seen verbatim for blocks: a divergence risk).
// Limits are docs.slack.dev's Block Kit reference (block and element pages). The checks are pure:
// `blockProblems` answers the sentences, the route refuses with them.

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Where blocks are shown: a message holds 50 of them, a modal or an App Home 100. */
export type Surface = "message" | "view";

const MAX_BLOCKS: Record<Surface, number> = { message: 50, view: 100 };

/** Block types checked field by field. */
const CHECKED_BLOCKS = new Set([
  "section",
  "divider",
  "header",
  "context",
  "actions",
  "image",
  "input",
  "rich_text",
  "video",
  "file",
  "markdown",
]);
/**
 * Block types Slack accepts that the twin knows only by name (newer or AI-app blocks, from
 * @slack/types 3.2.0's `KnownBlock`): accepted with their type checked, nothing more.
 */
const NAMED_BLOCKS = new Set(["table", "plan", "task_card", "card", "carousel", "alert", "container", "context_actions", "data_table"]);

/** Interactive elements, by where they may go (docs.slack.dev, each block's `elements`/`accessory`). */
const SELECTS = [
  "static_select",
  "external_select",
  "users_select",
  "conversations_select",
  "channels_select",
  "multi_static_select",
  "multi_external_select",
  "multi_users_select",
  "multi_conversations_select",
  "multi_channels_select",
];
const ACTION_ELEMENTS = new Set([
  "button",
  "checkboxes",
  "datepicker",
  "datetimepicker",
  "overflow",
  "radio_buttons",
  "timepicker",
  "workflow_button",
  "rich_text_input",
  "icon_button",
  "feedback_buttons",
  ...SELECTS,
]);
const ACCESSORY_ELEMENTS = new Set([
  "button",
  "checkboxes",
  "datepicker",
  "image",
  "overflow",
  "radio_buttons",
  "timepicker",
  "workflow_button",
  ...SELECTS,
]);
const INPUT_ELEMENTS = new Set([
  "checkboxes",
  "datepicker",
  "datetimepicker",
  "email_text_input",
  "file_input",
  "number_input",
  "plain_text_input",
  "radio_buttons",
  "rich_text_input",
  "timepicker",
  "url_text_input",
  ...SELECTS,
]);
const RICH_TEXT_PARTS = new Set(["rich_text_section", "rich_text_list", "rich_text_preformatted", "rich_text_quote"]);

const BOTH_TEXT = ["plain_text", "mrkdwn"] as const;
const PLAIN_ONLY = ["plain_text"] as const;

/** Collects the problems of one payload, each as Slack words it. */
class Problems {
  readonly list: string[] = [];
  add(sentence: string, at: string): void {
    this.list.push(`${sentence} [json-pointer:${at}]`);
  }
}

const chars = (s: string) => [...s].length;

/** A string field within a length limit; `required` adds the missing-field sentence. */
function checkString(p: Problems, obj: Json, key: string, at: string, max: number, required = false): void {
  const v = obj[key];
  if (v === undefined) {
    if (required) p.add(`missing required field: ${key}`, at);
    return;
  }
  if (typeof v !== "string") {
    p.add("must be a string", `${at}/${key}`);
    return;
  }
  if (required && v.length === 0) p.add("must be more than 0 characters", `${at}/${key}`);
  else if (chars(v) > max) p.add(`must be less than ${max + 1} characters`, `${at}/${key}`);
}

/** A text composition object: one of `kinds`, its text 1..max characters. */
function checkText(p: Problems, v: unknown, at: string, kinds: readonly string[], max: number): void {
  if (!isObject(v)) {
    p.add("must provide an object", at);
    return;
  }
  const type = v.type;
  if (typeof type !== "string" || !kinds.includes(type)) {
    p.add(`unsupported type: ${typeof type === "string" ? type : "undefined"}`, `${at}/type`);
    return;
  }
  for (const key of Object.keys(v)) {
    const allowed = type === "plain_text" ? ["type", "text", "emoji"] : ["type", "text", "verbatim"];
    if (!allowed.includes(key)) p.add(`invalid additional property: ${key}`, at);
  }
  const text = v.text;
  if (typeof text !== "string") {
    p.add(text === undefined ? "missing required field: text" : "must be a string", text === undefined ? at : `${at}/text`);
    return;
  }
  if (text.length === 0) p.add("must be more than 0 characters", `${at}/text`);
  else if (chars(text) > max) {
    p.add("failed to match all allowed schemas", at);
    p.add(`must be less than ${max + 1} characters`, `${at}/text`);
  }
}

/** An array field of `min..max` items; answers the items to check, or nothing if it is not one. */
function checkArray(p: Problems, obj: Json, key: string, at: string, min: number, max: number, required = true): unknown[] {
  const v = obj[key];
  if (v === undefined) {
    if (required) p.add(`missing required field: ${key}`, at);
    return [];
  }
  if (!Array.isArray(v)) {
    p.add("must provide an array", `${at}/${key}`);
    return [];
  }
  if (v.length < min) p.add(`must provide at least ${min} item${min === 1 ? "" : "s"}`, `${at}/${key}`);
  if (v.length > max) p.add(`no more than ${max} items allowed`, `${at}/${key}`);
  return v;
}

function checkOnlyKeys(p: Problems, obj: Json, at: string, allowed: readonly string[]): void {
  for (const key of Object.keys(obj)) if (!allowed.includes(key)) p.add(`invalid additional property: ${key}`, at);
}

/** An interactive element (button, select, input…), of a type `allowed` in its place. */
function checkElement(p: Problems, v: unknown, at: string, allowed: ReadonlySet<string>): void {
  if (!isObject(v)) {
    p.add("must provide an object", at);
    return;
  }
  const type = v.type;
  if (typeof type !== "string" || !allowed.has(type)) {
    p.add(`unsupported type: ${typeof type === "string" ? type : "undefined"}`, `${at}/type`);
    return;
  }
  checkString(p, v, "action_id", at, 255);
  switch (type) {
    case "button":
      checkOnlyKeys(p, v, at, ["type", "text", "action_id", "url", "value", "style", "confirm", "accessibility_label"]);
      if (v.text === undefined) p.add("missing required field: text", at);
      else checkText(p, v.text, `${at}/text`, PLAIN_ONLY, 75);
      checkString(p, v, "url", at, 3000);
      checkString(p, v, "value", at, 2000);
      if (v.style !== undefined && v.style !== "primary" && v.style !== "danger")
        p.add(`unsupported style: ${String(v.style)}`, `${at}/style`);
      return;
    case "image":
      checkString(p, v, "alt_text", at, 2000, true);
      if (v.image_url === undefined && v.slack_file === undefined) p.add("missing required field: image_url", at);
      else checkString(p, v, "image_url", at, 3000);
      return;
    case "overflow":
      for (const [i, o] of checkArray(p, v, "options", at, 1, 5).entries()) checkOption(p, o, `${at}/options/${i}`);
      return;
    case "checkboxes":
    case "radio_buttons":
      for (const [i, o] of checkArray(p, v, "options", at, 1, 10).entries()) checkOption(p, o, `${at}/options/${i}`);
      return;
    case "static_select":
    case "multi_static_select":
      if (v.option_groups === undefined) {
        for (const [i, o] of checkArray(p, v, "options", at, 1, 100).entries()) checkOption(p, o, `${at}/options/${i}`);
      }
      if (v.placeholder !== undefined) checkText(p, v.placeholder, `${at}/placeholder`, PLAIN_ONLY, 150);
      return;
    default:
      if (v.placeholder !== undefined) checkText(p, v.placeholder, `${at}/placeholder`, PLAIN_ONLY, 150);
  }
}

/** An option object: its text (75), value (150). */
function checkOption(p: Problems, v: unknown, at: string): void {
  if (!isObject(v)) {
    p.add("must provide an object", at);
    return;
  }
  if (v.text === undefined) p.add("missing required field: text", at);
  else checkText(p, v.text, `${at}/text`, BOTH_TEXT, 75);
  checkString(p, v, "value", at, 150, true);
}

function checkBlock(p: Problems, v: unknown, at: string, blockIds: Set<string>): void {
  if (!isObject(v)) {
    p.add("must provide an object", at);
    return;
  }
  const type = v.type;
  if (typeof type !== "string") {
    p.add(v.type === undefined ? "missing required field: type" : "must be a string", at);
    return;
  }
  if (NAMED_BLOCKS.has(type)) return;
  if (!CHECKED_BLOCKS.has(type)) {
    p.add(`unsupported type: ${type}`, `${at}/type`);
    return;
  }
  checkBlockId(p, v, at, blockIds);
  checkBlockFields(p, v, type, at);
}

/** A block's `block_id`: at most 255 characters, and unique across the payload's blocks. */
function checkBlockId(p: Problems, v: Json, at: string, blockIds: Set<string>): void {
  const blockId = v.block_id;
  if (blockId === undefined) return;
  checkString(p, v, "block_id", at, 255);
  if (typeof blockId === "string") {
    if (blockIds.has(blockId)) p.add(`\`block_id\` "${blockId}" already exists`, `${at}/block_id`);
    blockIds.add(blockId);
  }
}

/** The fields of a block whose `type` is one of CHECKED_BLOCKS. */
function checkBlockFields(p: Problems, v: Json, type: string, at: string): void {
  switch (type) {
    case "section":
      checkSectionBlock(p, v, at);
      return;
    case "divider":
      checkOnlyKeys(p, v, at, ["type", "block_id"]);
      return;
    case "header":
      checkOnlyKeys(p, v, at, ["type", "block_id", "text", "level"]);
      if (v.text === undefined) {
        p.add("missing required field: text", at);
        return;
      }
      checkText(p, v.text, `${at}/text`, PLAIN_ONLY, 150);
      return;
    case "context":
      checkContextBlock(p, v, at);
      return;
    case "actions":
      checkActionsBlock(p, v, at);
      return;
    case "image":
      checkString(p, v, "alt_text", at, 2000, true);
      if (v.image_url === undefined && v.slack_file === undefined) p.add("missing required field: image_url", at);
      else checkString(p, v, "image_url", at, 3000);
      if (v.title !== undefined) checkText(p, v.title, `${at}/title`, PLAIN_ONLY, 2000);
      return;
    case "input":
      checkInputBlock(p, v, at);
      return;
    case "rich_text":
      checkRichTextBlock(p, v, at);
      return;
    case "video":
      checkVideoBlock(p, v, at);
      return;
    case "file":
      checkFileBlock(p, v, at);
      return;
    case "markdown":
      // The markdown block's text: at most 12,000 characters across a payload's markdown blocks.
      checkString(p, v, "text", at, 12000, true);
      return;
  }
}

function checkSectionBlock(p: Problems, v: Json, at: string): void {
  checkOnlyKeys(p, v, at, ["type", "block_id", "text", "fields", "accessory", "expand"]);
  if (v.text === undefined && v.fields === undefined) p.add("must define either `text` or `fields`", `${at}/type`);
  if (v.text !== undefined) checkText(p, v.text, `${at}/text`, BOTH_TEXT, 3000);
  if (v.fields !== undefined) {
    for (const [i, f] of checkArray(p, v, "fields", at, 1, 10).entries()) checkText(p, f, `${at}/fields/${i}`, BOTH_TEXT, 2000);
  }
  if (v.accessory !== undefined) checkElement(p, v.accessory, `${at}/accessory`, ACCESSORY_ELEMENTS);
}

/** A context block's elements: images, or text objects. */
function checkContextBlock(p: Problems, v: Json, at: string): void {
  for (const [i, e] of checkArray(p, v, "elements", at, 1, 10).entries()) {
    const here = `${at}/elements/${i}`;
    if (isObject(e) && e.type === "image") checkElement(p, e, here, new Set(["image"]));
    else checkText(p, e, here, BOTH_TEXT, 3000);
  }
}

/** An actions block's elements, whose `action_id`s are unique within the block. */
function checkActionsBlock(p: Problems, v: Json, at: string): void {
  const actionIds = new Set<string>();
  for (const [i, e] of checkArray(p, v, "elements", at, 1, 25).entries()) {
    const here = `${at}/elements/${i}`;
    checkElement(p, e, here, ACTION_ELEMENTS);
    const id = isObject(e) ? e.action_id : undefined;
    if (typeof id === "string") {
      if (actionIds.has(id)) p.add(`\`action_id\` "${id}" already exists`, `${here}/action_id`);
      actionIds.add(id);
    }
  }
}

function checkInputBlock(p: Problems, v: Json, at: string): void {
  if (v.label === undefined) p.add("missing required field: label", at);
  else checkText(p, v.label, `${at}/label`, PLAIN_ONLY, 2000);
  if (v.element === undefined) p.add("missing required field: element", at);
  else checkElement(p, v.element, `${at}/element`, INPUT_ELEMENTS);
  if (v.hint !== undefined) checkText(p, v.hint, `${at}/hint`, PLAIN_ONLY, 2000);
}

/** A rich_text block's parts: each a known part type carrying its own `elements` array. */
function checkRichTextBlock(p: Problems, v: Json, at: string): void {
  for (const [i, e] of checkArray(p, v, "elements", at, 1, 100).entries()) {
    const here = `${at}/elements/${i}`;
    if (!isObject(e)) p.add("must provide an object", here);
    else if (typeof e.type !== "string" || !RICH_TEXT_PARTS.has(e.type)) p.add(`unsupported type: ${String(e.type)}`, `${here}/type`);
    else if (!Array.isArray(e.elements)) p.add("missing required field: elements", here);
  }
}

function checkVideoBlock(p: Problems, v: Json, at: string): void {
  checkString(p, v, "alt_text", at, 2000, true);
  checkString(p, v, "thumbnail_url", at, 3000, true);
  checkString(p, v, "video_url", at, 3000, true);
  if (v.title === undefined) p.add("missing required field: title", at);
  else checkText(p, v.title, `${at}/title`, PLAIN_ONLY, 199);
}

/** A file block names a remote file: its `external_id`, and `source` "remote". */
function checkFileBlock(p: Problems, v: Json, at: string): void {
  checkString(p, v, "external_id", at, 255, true);
  if (v.source !== "remote")
    p.add(v.source === undefined ? "missing required field: source" : "unsupported source", v.source === undefined ? at : `${at}/source`);
}

/**
 * What is wrong with `blocks` (a message's or a view's) as Slack words it; empty when Slack takes
 * them. `root` is the pointer the blocks hang under (`/blocks`, `/attachments/0/blocks`).
 */
export function blockProblems(blocks: unknown, surface: Surface = "message", root = "/blocks"): string[] {
  const p = new Problems();
  if (!Array.isArray(blocks)) {
    p.add("must provide an array", root);
    return p.list;
  }
  if (blocks.length > MAX_BLOCKS[surface]) p.add(`no more than ${MAX_BLOCKS[surface]} items allowed`, root);
  const ids = new Set<string>();
  for (const [i, block] of blocks.entries()) checkBlock(p, block, `${root}/${i}`, ids);
  return p.list;
}

/** Slack's refusal body for invalid blocks: the sentences in `errors` and, marked `[ERROR]`, in `response_metadata.messages`. */
export const invalidBlocksExtra = (problems: readonly string[]) => ({
  errors: problems,
  response_metadata: { messages: problems.map((s) => `[ERROR] ${s}`) },
});
