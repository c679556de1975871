// Views as Slack validates and answers them ("Reference: view objects", docs.slack.dev/reference/
// views): a modal has a plain_text `title` of at most 24 characters, 1 to 100 blocks, optional
// `close` and `submit` of at most 24 characters (`submit` required when an input block is there),
// `private_metadata` of at most 3000 characters, `callback_id` and `external_id` of at most 255;
// an App Home (`home`) has the blocks and no title. A refusal is `invalid_arguments` with its
// sentences in `response_metadata.messages`, `[ERROR] … [json-pointer:/view/…]` as Slack words
// them. The view object answered follows views.open's example in Slack's OpenAPI description
// (test/fixtures/service-specs/slack/slack_web_openapi_v2.json).
import { blockProblems } from "./blocks";
import type { SlackView } from "./seed-surfaces";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A view's own properties (beside what Slack adds to what it answers). */
const VIEW_KEYS: Record<string, readonly string[]> = {
  modal: [
    "type",
    "title",
    "blocks",
    "close",
    "submit",
    "private_metadata",
    "callback_id",
    "clear_on_close",
    "notify_on_close",
    "external_id",
    "submit_disabled",
  ],
  home: ["type", "blocks", "private_metadata", "callback_id", "external_id"],
};

const MAX_VIEW_BYTES = 250_000;
const chars = (s: string) => [...s].length;

function plainText(out: string[], view: Json, key: string, max: number, required: boolean): void {
  const v = view[key];
  const at = `[json-pointer:/view/${key}]`;
  if (v === undefined) {
    if (required) out.push(`[ERROR] missing required field: ${key} ${at}`);
    return;
  }
  if (!isObject(v) || v.type !== "plain_text") {
    out.push(`[ERROR] must be a plain_text text object ${at}`);
    return;
  }
  if (typeof v.text !== "string" || v.text === "") out.push(`[ERROR] must be more than 0 characters [json-pointer:/view/${key}/text]`);
  else if (chars(v.text) > max) out.push(`[ERROR] must be less than ${max + 1} characters [json-pointer:/view/${key}/text]`);
}

function maxString(out: string[], view: Json, key: string, max: number): void {
  const v = view[key];
  if (v === undefined) return;
  if (typeof v !== "string") out.push(`[ERROR] must be a string [json-pointer:/view/${key}]`);
  else if (chars(v) > max) out.push(`[ERROR] must be less than ${max + 1} characters [json-pointer:/view/${key}]`);
}

/**
 * What is wrong with a view payload, as Slack words it; empty when Slack takes it. `kind` is what
 * the method opens: views.publish only a home, views.open/push/update only a modal.
 */
export function viewProblems(view: unknown, kind: "modal" | "home"): string[] {
  if (!isObject(view)) return ["[ERROR] must provide an object [json-pointer:/view]"];
  if (view.type === undefined) return ["[ERROR] missing required field: type [json-pointer:/view/type]"];
  if (view.type !== kind) return [`[ERROR] must be ${kind} [json-pointer:/view/type]`];
  const out: string[] = [];
  const allowed = VIEW_KEYS[kind] ?? [];
  for (const key of Object.keys(view))
    if (!allowed.includes(key)) out.push(`[ERROR] invalid additional property: ${key} [json-pointer:/view]`);
  if (kind === "modal") {
    plainText(out, view, "title", 24, true);
    plainText(out, view, "close", 24, false);
    const inputs = Array.isArray(view.blocks) && view.blocks.some((b) => isObject(b) && b.type === "input");
    plainText(out, view, "submit", 24, inputs);
  }
  maxString(out, view, "private_metadata", 3000);
  maxString(out, view, "callback_id", 255);
  maxString(out, view, "external_id", 255);
  if (view.blocks === undefined) out.push("[ERROR] missing required field: blocks [json-pointer:/view/blocks]");
  else out.push(...blockProblems(view.blocks, "view", "/view/blocks").map((s) => `[ERROR] ${s}`));
  return out;
}

/** Whether a payload passes Slack's 250 kB limit for a view (`view_too_large`). */
export const viewTooLarge = (view: unknown) => new TextEncoder().encode(JSON.stringify(view)).length > MAX_VIEW_BYTES;

export interface Installed {
  team_id: string;
  app_id: string;
  bot_id: string;
}

/** The view object Slack answers views.* with. */
export function viewObject(v: SlackView, installed: Installed): Json {
  const p = v.view;
  const base: Json = {
    id: v.id,
    team_id: installed.team_id,
    type: p.type,
    blocks: p.blocks ?? [],
    private_metadata: p.private_metadata ?? "",
    callback_id: p.callback_id ?? "",
    state: { values: {} },
    hash: v.hash,
    clear_on_close: p.clear_on_close ?? false,
    notify_on_close: p.notify_on_close ?? false,
  };
  if (p.type === "modal") {
    base.title = p.title;
    base.close = p.close ?? null;
    base.submit = p.submit ?? null;
  } else {
    base.close = null;
    base.submit = null;
  }
  return {
    ...base,
    previous_view_id: v.previous_view_id ?? null,
    root_view_id: v.root_view_id ?? null,
    app_id: installed.app_id,
    external_id: p.external_id ?? "",
    app_installed_team_id: installed.team_id,
    bot_id: installed.bot_id,
  };
}
