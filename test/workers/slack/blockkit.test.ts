// Block Kit as Slack validates it, through WebClient: unknown block and element types, missing
// required fields and Slack's limits are refused `invalid_blocks` with Slack's sentences in
// `response_metadata.messages`, and a refused post writes nothing.
import type { WebAPICallResult, WebClient } from "@slack/web-api";
import { describe, expect, it } from "vitest";
import { blockProblems } from "../../../durable-objects/twins/slack/blocks";
import { slackSandbox } from "./client";
import { acmeSeed } from "./fixtures";

/** The refusal's error code and its `[ERROR]` messages, as the client reports them. */
async function refusalOf(promise: Promise<WebAPICallResult>): Promise<{ error: string; messages: string[] }> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "the call was expected to be refused").toBeInstanceOf(Error);
  const data = (err as { data?: { error?: string; response_metadata?: { messages?: string[] } } }).data;
  return { error: data?.error ?? "", messages: data?.response_metadata?.messages ?? [] };
}

const post = (web: WebClient, blocks: unknown[]) =>
  web.chat.postMessage({ channel: "C0GENERAL", text: "fallback", blocks: blocks as never });
const plain = (text: string) => ({ type: "plain_text", text });
const mrkdwn = (text: string) => ({ type: "mrkdwn", text });

describe("slack Block Kit: what Slack takes", () => {
  it("posts every documented block type and keeps the blocks as sent", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const blocks = [
      { type: "header", text: plain("Deploy 42") },
      {
        type: "section",
        text: mrkdwn("*Status:* green"),
        accessory: { type: "button", text: plain("Open"), action_id: "open", url: "https://x.test" },
      },
      { type: "section", fields: [mrkdwn("*Env*"), mrkdwn("prod")] },
      { type: "divider" },
      { type: "context", elements: [mrkdwn("by <@U0ALICE>"), { type: "image", image_url: "https://x.test/a.png", alt_text: "a" }] },
      {
        type: "actions",
        block_id: "approve",
        elements: [
          { type: "button", text: plain("Approve"), action_id: "yes", style: "primary", value: "42" },
          { type: "button", text: plain("Reject"), action_id: "no", style: "danger" },
          { type: "static_select", action_id: "env", options: [{ text: plain("prod"), value: "prod" }] },
        ],
      },
      { type: "image", image_url: "https://x.test/graph.png", alt_text: "graph", title: plain("Latency") },
      { type: "input", label: plain("Reason"), element: { type: "plain_text_input", action_id: "reason" } },
      { type: "rich_text", elements: [{ type: "rich_text_section", elements: [{ type: "text", text: "hi" }] }] },
      { type: "video", title: plain("Demo"), video_url: "https://x.test/v", thumbnail_url: "https://x.test/t.png", alt_text: "demo" },
      { type: "file", external_id: "ext-1", source: "remote" },
    ];
    const posted = await post(web, blocks);
    expect(posted.message?.blocks).toEqual(blocks);
  });
});

describe("slack Block Kit: what Slack refuses, in Slack's words", () => {
  it("refuses an empty text with `must be more than 0 characters` at its JSON pointer", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const refused = await refusalOf(post(web, [{ type: "section", text: mrkdwn("") }]));
    expect(refused).toEqual({
      error: "invalid_blocks",
      messages: ["[ERROR] must be more than 0 characters [json-pointer:/blocks/0/text/text]"],
    });
  });

  it("refuses an unknown block type and an unknown element type", async () => {
    const { web } = await slackSandbox(acmeSeed());
    expect((await refusalOf(post(web, [{ type: "sections", text: mrkdwn("x") }]))).messages).toEqual([
      "[ERROR] unsupported type: sections [json-pointer:/blocks/0/type]",
    ]);
    expect((await refusalOf(post(web, [{ type: "actions", elements: [{ type: "slider", action_id: "a" }] }]))).messages).toEqual([
      "[ERROR] unsupported type: slider [json-pointer:/blocks/0/elements/0/type]",
    ]);
  });

  it("holds a section's text to 3000 characters, a header's to 150 plain_text, ten fields", async () => {
    const { web } = await slackSandbox(acmeSeed());
    expect((await refusalOf(post(web, [{ type: "section", text: mrkdwn("x".repeat(3001)) }]))).messages).toEqual([
      "[ERROR] failed to match all allowed schemas [json-pointer:/blocks/0/text]",
      "[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]",
    ]);
    await post(web, [{ type: "section", text: mrkdwn("x".repeat(3000)) }]);
    expect((await refusalOf(post(web, [{ type: "header", text: plain("h".repeat(151)) }]))).messages).toContain(
      "[ERROR] must be less than 151 characters [json-pointer:/blocks/0/text/text]",
    );
    expect((await refusalOf(post(web, [{ type: "header", text: mrkdwn("*bold*") }]))).messages).toEqual([
      "[ERROR] unsupported type: mrkdwn [json-pointer:/blocks/0/text/type]",
    ]);
    const fields = Array.from({ length: 11 }, (_, i) => mrkdwn(`f${i}`));
    expect((await refusalOf(post(web, [{ type: "section", fields }]))).messages).toEqual([
      "[ERROR] no more than 10 items allowed [json-pointer:/blocks/0/fields]",
    ]);
  });

  it("refuses a section with neither text nor fields, and a missing required field", async () => {
    const { web } = await slackSandbox(acmeSeed());
    expect((await refusalOf(post(web, [{ type: "section" }]))).messages).toEqual([
      "[ERROR] must define either `text` or `fields` [json-pointer:/blocks/0/type]",
    ]);
    expect((await refusalOf(post(web, [{ type: "image", image_url: "https://x.test/a.png" }]))).messages).toEqual([
      "[ERROR] missing required field: alt_text [json-pointer:/blocks/0]",
    ]);
    expect((await refusalOf(post(web, [{ type: "actions", elements: [{ type: "button", action_id: "a" }] }]))).messages).toEqual([
      "[ERROR] missing required field: text [json-pointer:/blocks/0/elements/0]",
    ]);
  });

  it("refuses more than 50 blocks in a message", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const blocks = Array.from({ length: 51 }, () => ({ type: "divider" }));
    expect((await refusalOf(post(web, blocks))).messages).toEqual(["[ERROR] no more than 50 items allowed [json-pointer:/blocks]"]);
    await post(web, blocks.slice(0, 50));
  });

  it("refuses two elements of one actions block with the same action_id, and a property Slack does not define", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const button = (id: string) => ({ type: "button", text: plain(id), action_id: id });
    expect((await refusalOf(post(web, [{ type: "actions", elements: [button("go"), button("go")] }]))).messages).toEqual([
      '[ERROR] `action_id` "go" already exists [json-pointer:/blocks/0/elements/1/action_id]',
    ]);
    expect((await refusalOf(post(web, [{ type: "actions", elements: [{ ...button("go"), disabled: true }] }]))).messages).toEqual([
      "[ERROR] invalid additional property: disabled [json-pointer:/blocks/0/elements/0]",
    ]);
  });

  it("checks blocks on chat.update too, and a refused post or edit writes nothing", async () => {
    const { web } = await slackSandbox(acmeSeed());
    expect((await refusalOf(post(web, [{ type: "header" }]))).error).toBe("invalid_blocks");
    const before = await web.conversations.history({ channel: "C0GENERAL" });
    expect(before.messages ?? []).toEqual([]);
    const posted = await web.chat.postMessage({ channel: "C0GENERAL", text: "v1" });
    const edit = web.chat.update({
      channel: "C0GENERAL",
      ts: posted.ts ?? "",
      text: "v2",
      blocks: [{ type: "divider", extra: 1 }] as never,
    });
    expect((await refusalOf(edit)).error).toBe("invalid_blocks");
    const after = await web.conversations.history({ channel: "C0GENERAL" });
    expect(after.messages?.[0]?.text).toBe("v1");
  });

  it("checks blocks on chat.postEphemeral too, with the same refusal", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const ephemeral = web.chat.postEphemeral({ channel: "C0GENERAL", user: "U0ALICE", text: "x", blocks: [{ type: "header" }] as never });
    expect((await refusalOf(ephemeral)).error).toBe("invalid_blocks");
  });

  it("refuses more than 100 attachments, and checks blocks inside an attachment", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const many = Array.from({ length: 101 }, (_, i) => ({ text: `a${i}`, fallback: `a${i}` }));
    expect((await refusalOf(web.chat.postMessage({ channel: "C0GENERAL", text: "x", attachments: many }))).error).toBe(
      "too_many_attachments",
    );
    const bad = await refusalOf(
      web.chat.postMessage({ channel: "C0GENERAL", text: "x", attachments: [{ color: "#f00", blocks: [{ type: "nope" }] as never }] }),
    );
    expect(bad).toEqual({
      error: "invalid_attachments",
      messages: ["[ERROR] unsupported type: nope [json-pointer:/attachments/0/blocks/0/type]"],
    });
  });
});

describe("slack Block Kit: the validator as a plain function", () => {
  it("answers nothing for valid blocks and a view's 100-block room", () => {
    expect(blockProblems([{ type: "divider" }, { type: "section", text: { type: "plain_text", text: "ok", emoji: true } }])).toEqual([]);
    const hundred = Array.from({ length: 100 }, () => ({ type: "divider" }));
    expect(blockProblems(hundred, "view")).toEqual([]);
    expect(blockProblems(hundred, "message")).toEqual(["no more than 50 items allowed [json-pointer:/blocks]"]);
  });

  it("never throws on hostile shapes", () => {
    for (const v of [
      null,
      1,
      "x",
      {},
      [null],
      [[]],
      [{ type: 5 }],
      [{ type: "section", text: 7, fields: {} }],
      [{ type: "actions", elements: "x" }],
    ]) {
      expect(Array.isArray(blockProblems(v))).toBe(true);
    }
    expect(blockProblems([{ type: "section", text: 7 }])).toEqual(["must provide an object [json-pointer:/blocks/0/text]"]);
  });
});
