// Message text as Slack reads it: mentions, links and escapes in the rich_text block Slack derives
// for a text-only message; link_names and parse=full turning @name/#channel into mentions; an
// unknown user's mention left as text; legacy attachments checked and kept as Slack keeps them.
import { describe, expect, it } from "vitest";
import { type Directory, derivedBlock, linkNames, parseFull, richElements } from "../../../durable-objects/twins/slack/mrkdwn";
import { slackErrorOf, slackSandbox } from "./client";
import { acmeSeed } from "./fixtures";

const dir: Directory = {
  userExists: (id) => ["U0ALICE", "U0BOB"].includes(id),
  userIdByName: (name) => ({ alice: "U0ALICE", bob: "U0BOB" })[name],
  channelIdByName: (name) => (name === "incidents" ? "C0INCIDENT" : undefined),
  usergroupIdByHandle: (handle) => (handle === "oncall" ? "S0ONCALL" : undefined),
  emojiExists: (name) => name === "fire",
};

describe("mentions, links and escapes become rich_text elements (pure)", () => {
  it("reads users, channels, broadcasts, user groups, links and escapes", () => {
    const text =
      "<@U0ALICE> see <#C0INCIDENT|incidents> <!here> <!subteam^S0ONCALL|@oncall> <https://acme.test/x?a=1&amp;b=2|the doc> a &lt;b&gt; &amp; c :fire:";
    expect(richElements(text, dir)).toEqual([
      { type: "user", user_id: "U0ALICE" },
      { type: "text", text: " see " },
      { type: "channel", channel_id: "C0INCIDENT" },
      { type: "text", text: " " },
      { type: "broadcast", range: "here" },
      { type: "text", text: " " },
      { type: "usergroup", usergroup_id: "S0ONCALL" },
      { type: "text", text: " " },
      { type: "link", url: "https://acme.test/x?a=1&b=2", text: "the doc" },
      { type: "text", text: " a <b> & c " },
      { type: "emoji", name: "fire" },
    ]);
  });

  it("keeps a mention of a user the workspace lacks as text, and styles runs", () => {
    expect(richElements("hi <@U0NOBODY> *now* _please_ `code` ~old~", dir)).toEqual([
      { type: "text", text: "hi <@U0NOBODY> " },
      { type: "text", text: "now", style: { bold: true } },
      { type: "text", text: " " },
      { type: "text", text: "please", style: { italic: true } },
      { type: "text", text: " " },
      { type: "text", text: "code", style: { code: true } },
      { type: "text", text: " " },
      { type: "text", text: "old", style: { strike: true } },
    ]);
  });

  it("links names with link_names, and reads text as typed with parse=full", () => {
    expect(linkNames("@alice and @here, see #incidents; @oncall; @nobody <@U0BOB>", dir)).toBe(
      "<@U0ALICE> and <!here>, see <#C0INCIDENT|incidents>; <!subteam^S0ONCALL|@oncall>; @nobody <@U0BOB>",
    );
    expect(parseFull("@bob: 1 < 2 & see https://acme.test", dir)).toBe("<@U0BOB>: 1 &lt; 2 &amp; see <https://acme.test>");
  });

  it("gives the derived block a stable block_id", () => {
    expect(derivedBlock("hello", dir).block_id).toBe(derivedBlock("hello", dir).block_id);
    expect(derivedBlock("hello", dir).block_id).toMatch(/^[A-Za-z0-9]{5}$/);
  });
});

describe("a text-only message carries the rich_text block Slack derives", () => {
  it("answers and keeps mentions as blocks a reader can find", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const posted = await web.chat.postMessage({ channel: "C0INCIDENT", text: "<@U0ALICE> please look <https://status.acme.test|status>" });
    const blocks = posted.message?.blocks as { type: string; elements: { type: string; elements: unknown[] }[] }[];
    expect(blocks[0]?.type).toBe("rich_text");
    expect(blocks[0]?.elements[0]?.elements).toEqual([
      { type: "user", user_id: "U0ALICE" },
      { type: "text", text: " please look " },
      { type: "link", url: "https://status.acme.test", text: "status" },
    ]);
    const history = await web.conversations.history({ channel: "C0INCIDENT", limit: 1 });
    expect(history.messages?.[0]?.blocks).toEqual(blocks);
  });

  it("turns @name and #channel into mentions with link_names, and leaves them otherwise", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const linked = await web.chat.postMessage({ channel: "C0INCIDENT", text: "@alice check #incidents", link_names: true });
    expect(linked.message?.text).toBe("<@U0ALICE> check <#C0INCIDENT|incidents>");
    const plain = await web.chat.postMessage({ channel: "C0INCIDENT", text: "@alice check" });
    expect(plain.message?.text).toBe("@alice check");
    const full = await web.chat.postMessage({ channel: "C0INCIDENT", text: "@bob <b>", parse: "full" });
    expect(full.message?.text).toBe("<@U0BOB> &lt;b&gt;");
  });
});

describe("attachments are checked and kept as Slack documents them", () => {
  it("keeps legacy fields, numbers attachments and strips the color's #", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const posted = await web.chat.postMessage({
      channel: "C0INCIDENT",
      text: "deploy",
      attachments: [
        { fallback: "Deploy 42 ok", color: "#36a64f", title: "Deploy 42", fields: [{ title: "Env", value: "prod", short: true }] },
      ],
    });
    expect(posted.message?.attachments).toEqual([
      { id: 1, fallback: "Deploy 42 ok", color: "36a64f", title: "Deploy 42", fields: [{ title: "Env", value: "prod", short: true }] },
    ]);
  });

  it("refuses wrong legacy field types and colors with invalid_attachments", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const bad = [
      { fallback: "x", fields: "nope" },
      { fallback: "x", color: "blurple" },
      { fallback: "x", text: 5 },
      { fallback: "x", fields: [{ title: "t", short: "yes" }] },
    ];
    for (const a of bad) {
      expect(await slackErrorOf(web.chat.postMessage({ channel: "C0INCIDENT", text: "t", attachments: [a as never] }))).toBe(
        "invalid_attachments",
      );
    }
  });
});
