// chat.unfurl by a link_shared event's unfurl_id + source: the seed's `link_shares` are the events
// Slack sent the app (the twin sends none), posted (`conversations_history`, naming a message) or
// still in the composer (`composer`, no message yet). Refusals are the codes of the method's page.
import { describe, expect, it } from "vitest";
import { slackTwin } from "../../../durable-objects/twins/slack";
import { inTwinWorld } from "../kit/world";
import { slackErrorOf, slackSandbox, stateOf } from "./client";
import { ACME_SCOPES, acmeSeed } from "./fixtures";

type Json = Record<string, unknown>;

const POSTED_ID = "C0OPS.1700000002.000100.1b90fa1278528ce6e2f6c5c2bfa1abc9";
const COMPOSER_ID = "U0ALICE-909b5454-75f8-4ac4-b325-1b40e230bbd8-gryl3kb80b3wm49ihzoo35fyqoq08n2y";
const RELEASE = "https://deploy.acme.test/r/7";
const DRAFT = "https://deploy.acme.test/r/8";

/** The Acme workspace plus a private channel the bot is not in, where Alice shared a deploy link. */
function withShares(): Json {
  const seed = acmeSeed();
  return {
    ...seed,
    installation: { ...seed.installation, scope: `${ACME_SCOPES},links:write` },
    channels: [
      ...seed.channels,
      {
        id: "C0OPS",
        name: "ops",
        is_private: true,
        created: 1690000000,
        members: ["U0ALICE"],
        messages: [{ ts: "1700000002.000100", user: "U0ALICE", text: `shipping <${RELEASE}>` }],
      },
    ],
    link_shares: [
      {
        unfurl_id: POSTED_ID,
        source: "conversations_history",
        user: "U0ALICE",
        channel: "C0OPS",
        message_ts: "1700000002.000100",
        links: [{ domain: "deploy.acme.test", url: RELEASE }],
      },
      { unfurl_id: COMPOSER_ID, source: "composer", user: "U0ALICE", links: [{ domain: "deploy.acme.test", url: DRAFT }] },
    ],
  };
}

const opsMessage = async (sandbox: Parameters<typeof stateOf>[0]) => {
  const channels = (await stateOf(sandbox)).channels as { id: string; messages: Json[] }[];
  return channels.find((c) => c.id === "C0OPS")?.messages[0];
};

describe("chat.unfurl takes a posted link_shared event's unfurl_id and source", () => {
  it("previews the shared message, even in a private channel the bot is not in", async () => {
    const { sandbox, web } = await slackSandbox(withShares());
    const res = await web.chat.unfurl({
      unfurl_id: POSTED_ID,
      source: "conversations_history",
      unfurls: { [RELEASE]: { text: "r7: green" } },
    });
    expect(res.ok).toBe(true);
    expect((await opsMessage(sandbox))?.attachments).toEqual([
      { id: 1, text: "r7: green", app_unfurl_url: RELEASE, is_app_unfurl: true, app_id: "A0DEPLOY" },
    ]);
    // The event's channel + message_ts name the same message, and a second preview replaces the first.
    await web.chat.unfurl({ channel: "C0OPS", ts: "1700000002.000100", unfurls: { [RELEASE]: { text: "r7: rolled back" } } });
    expect((await opsMessage(sandbox))?.attachments).toEqual([
      { id: 1, text: "r7: rolled back", app_unfurl_url: RELEASE, is_app_unfurl: true, app_id: "A0DEPLOY" },
    ]);
    // The bot still cannot read the channel.
    expect(await slackErrorOf(web.conversations.history({ channel: "C0OPS" }))).toBe("channel_not_found");
  });

  it("refuses a URL the event did not share", async () => {
    const { web } = await slackSandbox(withShares());
    const call = web.chat.unfurl({ unfurl_id: POSTED_ID, source: "conversations_history", unfurls: { [DRAFT]: { text: "x" } } });
    expect(await slackErrorOf(call)).toBe("cannot_unfurl_url");
  });
});

describe("chat.unfurl takes a composer event's unfurl_id before the message is posted", () => {
  it("keeps the preview on the share, by unfurl_id + source or by COMPOSER + the id, and exports it", async () => {
    const { sandbox, web } = await slackSandbox(withShares());
    await web.chat.unfurl({ unfurl_id: COMPOSER_ID, source: "composer", unfurls: { [DRAFT]: { text: "r8: building" } } });
    await web.chat.unfurl({ channel: "COMPOSER", ts: COMPOSER_ID, unfurls: { [DRAFT]: { blocks: [{ type: "divider" }] } } });
    const shares = (await stateOf(sandbox)).link_shares as { unfurl_id: string; unfurls?: Json }[];
    expect(shares.find((s) => s.unfurl_id === COMPOSER_ID)?.unfurls).toEqual({ [DRAFT]: { blocks: [{ type: "divider" }] } });
  });
});

describe("chat.unfurl refuses a wrong unfurl_id or source as Slack words it", () => {
  it.each([
    ["missing_source", { unfurl_id: POSTED_ID }],
    ["missing_unfurl_id", { source: "composer" }],
    ["invalid_source", { unfurl_id: POSTED_ID, source: "thread" }],
    ["invalid_unfurl_id", { unfurl_id: "C0OPS.1.2.nope", source: "conversations_history" }],
    ["invalid_unfurl_id", { unfurl_id: POSTED_ID, source: "composer" }],
  ])("answers %s for %j", async (error, args) => {
    const { sandbox, web } = await slackSandbox(withShares());
    expect(await slackErrorOf(web.apiCall("chat.unfurl", { ...args, unfurls: { [RELEASE]: { text: "x" } } }))).toBe(error);
    expect((await opsMessage(sandbox))?.attachments).toBeUndefined();
  });
});

describe("the seed's link shares", () => {
  it("round-trip through boot and export", async () => {
    const parsed = slackTwin.parseSeed(withShares());
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    await inTwinWorld(slackTwin, withShares(), (w) => {
      expect(w.exportState()).toEqual(parsed.seed);
    });
  });

  it.each([
    ["a posted share naming no message", { message_ts: "1700000009.000100" }, 0, "link_shares[0].message_ts"],
    ["a posted share in an unknown channel", { channel: "C0NOPE" }, 0, "link_shares[0].channel"],
    ["a composer share with a channel", { channel: "C0OPS" }, 1, "link_shares[1]"],
    ["an unknown sharer", { user: "U0NOBODY" }, 1, "link_shares[1].user"],
  ])("refuses %s at its path", (_what, change, index, path) => {
    const seed = withShares();
    const shares = seed.link_shares as Json[];
    shares[index] = { ...shares[index], ...change };
    const r = slackTwin.parseSeed(seed);
    expect(r.ok ? [] : r.issues.map((i) => i.path)).toContain(path);
  });
});
