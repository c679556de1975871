// views.open, views.push, views.update and views.publish: modals opened with a trigger id (which
// a click hands the app, valid once and for 3 seconds on Slack; here the seed's `trigger_ids`,
// store/views.ts), a stack of at most three modals, updates by view_id or external_id guarded by
// `hash`, and a user's App Home. Refusals as Slack words them: `invalid_trigger_id`,
// `expired_trigger_id`, `exchanged_trigger_id`, `not_found`, `hash_conflict`,
// `duplicate_external_id`, `push_limit_reached`, `view_too_large`, and `invalid_arguments` with
// the view's problems in `response_metadata.messages` (views.ts).
import { z } from "zod";
import type { Route } from "../../types";
import { nextCounter } from "../../kit/sql";
import { type Call, method } from "../context";
import { type Refusal, json, text } from "../declare";
import { fail } from "../errors";
import { TRIGGER_ID, type SlackView } from "../seed-surfaces";
import { META, newId, nowSeconds } from "../store/rows";
import { userById } from "../store/users";
import { type ViewRow, homeOf, saveView, triggerRow, viewByExternalId, viewOfRow, viewRow } from "../store/views";
import { viewObject, viewProblems, viewTooLarge } from "../views";

/** A modal stack holds the root and two pushed views (views.push's `push_limit_reached`). */
const MAX_STACK = 3;

const NOT_A_VIEW: Refusal = {
  error: "invalid_arguments",
  response_metadata: { messages: ["[ERROR] must provide an object [json-pointer:/view]"] },
};
const viewArg = () =>
  json(z.record(z.string(), z.unknown()), { wrong: NOT_A_VIEW }).describe("A view payload (JSON): type, title, blocks…");
const invalid = (sentence: string) => ({ response_metadata: { messages: [sentence] } });

/** The payload checked as Slack checks it, else refused. */
function checkedView(view: Record<string, unknown>, kind: "modal" | "home"): Record<string, unknown> {
  if (viewTooLarge(view)) fail("view_too_large");
  const problems = viewProblems(view, kind);
  if (problems.length) fail("invalid_arguments", { response_metadata: { messages: problems } });
  return view;
}

/**
 * The user a trigger id opens a view for, once and before it expires. Marked used only by
 * `exchange`, after every other check: a refusal at HTTP 200 keeps what was written before it.
 */
function triggerUser(call: Call, triggerId: string): string {
  if (!TRIGGER_ID.test(triggerId)) fail("invalid_arguments", invalid("invalid `trigger_id`"));
  const trigger = triggerRow(call.db, triggerId) ?? fail("invalid_trigger_id");
  if (trigger.expires_at !== null && trigger.expires_at <= nowSeconds(call.clock)) fail("expired_trigger_id");
  if (trigger.exchanged) fail("exchanged_trigger_id");
  return trigger.user;
}

const exchange = (call: Call, triggerId: string) => call.db.run("UPDATE sl_triggers SET exchanged = 1 WHERE id = ?", triggerId);

/** An external_id another view already has is `duplicate_external_id`. */
function checkExternalId(call: Call, view: Record<string, unknown>, ownId: string | undefined): void {
  const externalId = view.external_id;
  if (typeof externalId !== "string" || externalId === "") return;
  const other = viewByExternalId(call.db, externalId);
  if (other && other.id !== ownId) fail("duplicate_external_id");
}

/** A fresh hash: Slack's are `<seconds>.<number>`, new on every version of a view. */
const newHash = (call: Call) => `${nowSeconds(call.clock)}.${nextCounter(call.db, META, "view_hash", 1000)}`;

const newViewId = (call: Call) => newId(call.db, "V", (id) => viewRow(call.db, id) !== undefined);

/** Writes a view and answers it as Slack does. */
function answer(call: Call, v: SlackView) {
  saveView(call.db, v);
  const botId = userById(call.db, call.installation.bot_user_id)?.profile.bot_id ?? "";
  return { view: viewObject(v, { team_id: call.team.id, app_id: call.installation.app_id, bot_id: botId }) };
}

/** The modal on top of a user's most recent stack, with the stack's size. */
function topOfStack(call: Call, user: string): { top: SlackView; size: number } | undefined {
  const root = call.db.one<ViewRow>(
    "SELECT * FROM sl_views WHERE kind = 'modal' AND user = ? AND data ->> 'root_view_id' = id ORDER BY rowid DESC LIMIT 1",
    user,
  );
  if (!root) return undefined;
  const stack = call.db.all<ViewRow>("SELECT * FROM sl_views WHERE data ->> 'root_view_id' = ? ORDER BY rowid", root.id);
  const top = stack.at(-1);
  return top ? { top: viewOfRow(top), size: stack.length } : undefined;
}

/** The view views.update names, by id or external id. */
function namedView(call: Call, viewId: string | undefined, externalId: string | undefined): SlackView {
  if (viewId === undefined && externalId === undefined) {
    fail("invalid_arguments", invalid("[ERROR] missing required field: view_id or external_id"));
  }
  const row = viewId !== undefined ? viewRow(call.db, viewId) : viewByExternalId(call.db, externalId ?? "");
  return row ? viewOfRow(row) : fail("not_found");
}

const hashArg = () => text().optional().describe("The view's last hash: the update is refused with hash_conflict if it changed since");

export const viewRoutes: Route[] = [
  ...method({
    name: "views.open",
    summary: "Opens a modal for the user whose click gave the trigger id",
    scopes: [],
    args: { trigger_id: text().describe("The trigger id of the user's interaction (12345.98765.abcd2358fdea)"), view: viewArg() },
    tool: { description: "Opens a modal view for a user, exchanging the trigger id of their interaction (valid once)." },
    handler: (call, args) => {
      const view = checkedView(args.view, "modal");
      const user = triggerUser(call, args.trigger_id);
      checkExternalId(call, view, undefined);
      exchange(call, args.trigger_id);
      const id = newViewId(call);
      return answer(call, { id, user, view, hash: newHash(call), root_view_id: id });
    },
  }),
  ...method({
    name: "views.push",
    summary: "Pushes a modal onto the stack of the modal the user has open",
    scopes: [],
    args: { trigger_id: text().describe("The trigger id of the user's interaction in the open modal"), view: viewArg() },
    tool: { description: "Pushes a modal onto the open modal's stack (at most three views), exchanging a trigger id." },
    handler: (call, args) => {
      const view = checkedView(args.view, "modal");
      const user = triggerUser(call, args.trigger_id);
      const stack = topOfStack(call, user) ?? fail("not_found");
      if (stack.size >= MAX_STACK) fail("push_limit_reached");
      checkExternalId(call, view, undefined);
      exchange(call, args.trigger_id);
      const id = newViewId(call);
      return answer(call, {
        id,
        user,
        view,
        hash: newHash(call),
        root_view_id: stack.top.root_view_id ?? stack.top.id,
        previous_view_id: stack.top.id,
      });
    },
  }),
  ...method({
    name: "views.update",
    summary: "Replaces a view, named by view_id or external_id; refused with hash_conflict if it changed since `hash`",
    scopes: [],
    args: {
      view: viewArg(),
      view_id: text().optional().describe("The view's id (V…)"),
      external_id: text().optional().describe("The external_id the view was opened with"),
      hash: hashArg(),
    },
    tool: { description: "Replaces an open modal (by view_id or external_id); pass hash to refuse a stale update (hash_conflict)." },
    handler: (call, args) => {
      const current = namedView(call, args.view_id, args.external_id);
      const kind = current.view.type === "home" ? "home" : "modal";
      const view = checkedView(args.view, kind);
      if (args.hash !== undefined && args.hash !== current.hash) fail("hash_conflict");
      checkExternalId(call, view, current.id);
      return answer(call, { ...current, view, hash: newHash(call) });
    },
  }),
  ...method({
    name: "views.publish",
    summary: "Publishes a user's App Home view",
    scopes: [],
    args: {
      user_id: text().describe("The user whose App Home it is (U…)"),
      view: viewArg(),
      hash: hashArg(),
    },
    tool: { description: "Publishes (creates or replaces) a user's App Home view; pass hash to refuse a stale update." },
    handler: (call, args) => {
      const view = checkedView(args.view, "home");
      if (!userById(call.db, args.user_id)) fail("invalid_arguments", invalid("invalid `user_id`"));
      const home = homeOf(call.db, args.user_id);
      const current = home ? viewOfRow(home) : undefined;
      if (current && args.hash !== undefined && args.hash !== current.hash) fail("hash_conflict");
      checkExternalId(call, view, current?.id);
      return answer(call, { id: current?.id ?? newViewId(call), user: args.user_id, view, hash: newHash(call) });
    },
  }),
];
