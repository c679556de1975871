// Views through WebClient: a modal opened with a seeded trigger id (valid once, until it expires),
// pushed onto, updated by id or external_id with hash guarding stale updates, an App Home published
// per user; views refused as Slack refuses them, with response_metadata.messages.
import { describe, expect, it } from "vitest";
import { viewProblems } from "../../../durable-objects/twins/slack/views";
import { slackErrorOf, slackSandbox, stateOf } from "./client";
import { acmeSeed } from "./fixtures";

const T1 = "12345.98765.abcd2358fdea";
const T2 = "12345.98766.abcd2358fdeb";
const T3 = "12345.98767.abcd2358fdec";
const EXPIRED = "12345.98768.abcd2358fded";

const seed = () =>
  acmeSeed({
    trigger_ids: [
      { id: T1, user: "U0ALICE" },
      { id: T2, user: "U0ALICE" },
      { id: T3, user: "U0ALICE" },
      { id: EXPIRED, user: "U0ALICE", expires_at: 1600000000 },
    ],
  });

const modal = (title: string, extra: Record<string, unknown> = {}) => ({
  type: "modal" as const,
  title: { type: "plain_text" as const, text: title },
  submit: { type: "plain_text" as const, text: "Save" },
  blocks: [
    {
      type: "input",
      block_id: "b1",
      label: { type: "plain_text", text: "Reason" },
      element: { type: "plain_text_input", action_id: "a1" },
    },
  ],
  ...extra,
});

async function refusal(promise: Promise<unknown>): Promise<{ error?: string; messages?: string[] }> {
  const err = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as { data?: { error?: string; response_metadata?: { messages?: string[] } } } | undefined;
  return { error: err?.data?.error, messages: err?.data?.response_metadata?.messages };
}

describe("a view is checked as Slack checks it (pure)", () => {
  it("words each problem with its JSON pointer", () => {
    expect(viewProblems(modal("x".repeat(25)), "modal")).toEqual([
      "[ERROR] must be less than 25 characters [json-pointer:/view/title/text]",
    ]);
    expect(viewProblems({ type: "modal", blocks: [] }, "modal")).toEqual([
      "[ERROR] missing required field: title [json-pointer:/view/title]",
    ]);
    const { submit: _s, ...noSubmit } = modal("t");
    expect(viewProblems(noSubmit, "modal")).toEqual(["[ERROR] missing required field: submit [json-pointer:/view/submit]"]);
    expect(viewProblems({ type: "home", blocks: [] }, "modal")).toEqual(["[ERROR] must be modal [json-pointer:/view/type]"]);
    expect(viewProblems({ type: "home", blocks: Array.from({ length: 101 }, () => ({ type: "divider" })) }, "home")).toEqual([
      "[ERROR] no more than 100 items allowed [json-pointer:/view/blocks]",
    ]);
  });
});

describe("views.open exchanges a trigger id once, before it expires", () => {
  it("opens a modal and answers Slack's view object", async () => {
    const { web } = await slackSandbox(seed());
    const opened = await web.views.open({
      trigger_id: T1,
      view: modal("Incident", { callback_id: "inc", private_metadata: "C0INCIDENT" }),
    });
    expect(opened.view).toMatchObject({
      type: "modal",
      team_id: "T0ACME",
      title: { type: "plain_text", text: "Incident" },
      callback_id: "inc",
      private_metadata: "C0INCIDENT",
      state: { values: {} },
      app_id: "A0DEPLOY",
      bot_id: "B0BOT",
      external_id: "",
    });
    expect(opened.view?.id).toMatch(/^V[A-Z0-9]+$/);
    expect(opened.view?.root_view_id).toBe(opened.view?.id);
    expect(opened.view?.hash).toMatch(/^\d+\.\d+$/);
    expect(await slackErrorOf(web.views.open({ trigger_id: T1, view: modal("Again") }))).toBe("exchanged_trigger_id");
  });

  it("refuses unknown, expired and malformed trigger ids, and an invalid view", async () => {
    const { web } = await slackSandbox(seed());
    expect(await slackErrorOf(web.views.open({ trigger_id: "99999.11111.ffff", view: modal("x") }))).toBe("invalid_trigger_id");
    expect(await slackErrorOf(web.views.open({ trigger_id: EXPIRED, view: modal("x") }))).toBe("expired_trigger_id");
    expect(await refusal(web.views.open({ trigger_id: "nope", view: modal("x") }))).toEqual({
      error: "invalid_arguments",
      messages: ["invalid `trigger_id`"],
    });
    expect(await refusal(web.views.open({ trigger_id: T1, view: modal("x".repeat(30)) }))).toEqual({
      error: "invalid_arguments",
      messages: ["[ERROR] must be less than 25 characters [json-pointer:/view/title/text]"],
    });
    // The refused call did not use the trigger up.
    expect((await web.views.open({ trigger_id: T1, view: modal("ok") })).ok).toBe(true);
  });
});

describe("views.push stacks modals, views.update replaces one guarded by hash", () => {
  it("pushes onto the open modal and updates by id and external_id", async () => {
    const { sandbox, web } = await slackSandbox(seed());
    const root = await web.views.open({ trigger_id: T1, view: modal("Root", { external_id: "incident-42" }) });
    const pushed = await web.views.push({ trigger_id: T2, view: modal("Details") });
    expect(pushed.view).toMatchObject({ root_view_id: root.view?.id, previous_view_id: root.view?.id });
    const byId = await web.views.update({
      view_id: String(root.view?.id),
      hash: String(root.view?.hash),
      view: modal("Root v2", { external_id: "incident-42" }),
    });
    expect(byId.view).toMatchObject({ id: root.view?.id, title: { text: "Root v2" } });
    expect(byId.view?.hash).not.toBe(root.view?.hash);
    expect(
      await slackErrorOf(web.views.update({ view_id: String(root.view?.id), hash: String(root.view?.hash), view: modal("Stale") })),
    ).toBe("hash_conflict");
    const byExternal = await web.views.update({ external_id: "incident-42", view: modal("Root v3", { external_id: "incident-42" }) });
    expect(byExternal.view?.id).toBe(root.view?.id);
    expect(await slackErrorOf(web.views.update({ view_id: "V0NOTHERE", view: modal("x") }))).toBe("not_found");
    const state = await stateOf(sandbox);
    expect((state.views as { view: { title: { text: string } } }[]).map((v) => v.view.title.text)).toEqual(["Root v3", "Details"]);
  });

  it("refuses a fourth modal on a stack and a duplicate external_id", async () => {
    const { web } = await slackSandbox(seed());
    await web.views.open({ trigger_id: T1, view: modal("Root", { external_id: "one" }) });
    expect(await slackErrorOf(web.views.push({ trigger_id: T2, view: modal("Dup", { external_id: "one" }) }))).toBe(
      "duplicate_external_id",
    );
    await web.views.push({ trigger_id: T2, view: modal("Two") });
    expect((await web.views.push({ trigger_id: T3, view: modal("Three") })).ok).toBe(true);
    const seeded = await slackSandbox(
      acmeSeed({ trigger_ids: ["1.1.a", "1.2.b", "1.3.c", "1.4.d"].map((id) => ({ id, user: "U0ALICE" })) }),
    );
    await seeded.web.views.open({ trigger_id: "1.1.a", view: modal("1") });
    await seeded.web.views.push({ trigger_id: "1.2.b", view: modal("2") });
    await seeded.web.views.push({ trigger_id: "1.3.c", view: modal("3") });
    expect(await slackErrorOf(seeded.web.views.push({ trigger_id: "1.4.d", view: modal("4") }))).toBe("push_limit_reached");
  });
});

describe("views.publish sets a user's App Home", () => {
  it("publishes, republishes the same view, and refuses a stale hash and an unknown user", async () => {
    const { web } = await slackSandbox(seed());
    const home = { type: "home" as const, blocks: [{ type: "section", text: { type: "mrkdwn", text: "*Welcome*" } }] };
    const first = await web.views.publish({ user_id: "U0ALICE", view: home });
    expect(first.view).toMatchObject({ type: "home", close: null, submit: null, root_view_id: null });
    const second = await web.views.publish({ user_id: "U0ALICE", view: home, hash: String(first.view?.hash) });
    expect(second.view?.id).toBe(first.view?.id);
    expect(await slackErrorOf(web.views.publish({ user_id: "U0ALICE", view: home, hash: String(first.view?.hash) }))).toBe("hash_conflict");
    expect(await refusal(web.views.publish({ user_id: "U0NOBODY", view: home }))).toEqual({
      error: "invalid_arguments",
      messages: ["invalid `user_id`"],
    });
    expect(await refusal(web.views.publish({ user_id: "U0ALICE", view: modal("x") as never }))).toEqual({
      error: "invalid_arguments",
      messages: ["[ERROR] must be home [json-pointer:/view/type]"],
    });
  });
});
