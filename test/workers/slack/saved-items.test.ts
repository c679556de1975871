// Saved items (stars.add/list/remove, "formerly known as stars"): a person's own list of messages,
// files and conversations, user token only, seeded and exported as `stars`.
import { describe, expect, it } from "vitest";
import { slackTwin } from "../../../durable-objects/twins/slack";
import { inTwinWorld } from "../kit/world";
import { slackErrorOf, slackSandbox, stateOf, webFor } from "./client";
import { acmeSeed } from "./fixtures";

type Json = Record<string, unknown>;

const withStars = (extra: Json = {}): Json => {
  const seed = acmeSeed(extra);
  return { ...seed, installation: { ...seed.installation, authed_user: { id: "U0ALICE", scope: "stars:read,stars:write" } } };
};

async function alice(seed: Json) {
  const { sandbox, web } = await slackSandbox(seed);
  return { sandbox, bot: web, user: webFor(sandbox, { token: sandbox.provider_credentials.slack.user_token }) };
}

describe("stars.add and stars.list keep a person's saved items", () => {
  it("saves a message, a file and a channel, lists them newest first with paging, and exports them", async () => {
    const { sandbox, user } = await alice(withStars());
    await user.stars.add({ channel: "C0INCIDENT", timestamp: "1700000000.000100" });
    await user.stars.add({ file: "F0RUNBOOK" });
    await user.stars.add({ channel: "C0GENERAL" });
    const list = await user.stars.list({});
    expect(list.items?.map((i) => i.type)).toEqual(["channel", "file", "message"]);
    expect(list.items?.[2]).toMatchObject({ channel: "C0INCIDENT", message: { ts: "1700000000.000100", text: "DB latency high" } });
    expect(list.items?.[1]?.file?.id).toBe("F0RUNBOOK");
    expect(list.paging).toEqual({ per_page: 100, spill: 0, page: 1, total: 3, pages: 1 });
    const second = await user.stars.list({ count: 2, page: 2 });
    expect(second.items?.map((i) => i.type)).toEqual(["message"]);
    expect(second.paging).toMatchObject({ page: 2, pages: 2, total: 3 });
    const stars = (await stateOf(sandbox)).stars as Json[];
    expect(stars.map(({ date_create: _, ...s }) => s)).toEqual([
      { user: "U0ALICE", channel: "C0INCIDENT", ts: "1700000000.000100" },
      { user: "U0ALICE", file: "F0RUNBOOK" },
      { user: "U0ALICE", channel: "C0GENERAL" },
    ]);
  });

  it("pages by cursor and limit too, as the method's page offers, and refuses a foreign cursor", async () => {
    const { bot, user } = await alice(withStars());
    await user.stars.add({ channel: "C0INCIDENT", timestamp: "1700000000.000100" });
    await user.stars.add({ file: "F0RUNBOOK" });
    await user.stars.add({ channel: "C0GENERAL" });
    const first = await user.stars.list({ limit: 2 });
    expect(first.items?.map((i) => i.type)).toEqual(["channel", "file"]);
    expect(first.paging).toBeUndefined();
    const next = first.response_metadata?.next_cursor ?? "";
    expect(next).not.toBe("");
    const last = await user.stars.list({ limit: 2, cursor: next });
    expect(last.items?.map((i) => i.type)).toEqual(["message"]);
    expect(last.response_metadata?.next_cursor).toBe("");
    // WebClient's paginate follows next_cursor to the end.
    const types: string[] = [];
    for await (const page of user.paginate("stars.list", { limit: 1 })) {
      for (const i of (page as { items?: { type?: string }[] }).items ?? []) types.push(i.type ?? "");
    }
    expect(types).toEqual(["channel", "file", "message"]);
    const foreign = (await bot.conversations.list({ limit: 1 })).response_metadata?.next_cursor;
    expect(foreign).toBeTruthy();
    expect(await slackErrorOf(user.stars.list({ limit: 1, cursor: foreign }))).toBe("invalid_cursor");
  });

  it("removes an item, and refuses saving it twice or removing it twice", async () => {
    const { sandbox, user } = await alice(withStars());
    await user.stars.add({ channel: "C0INCIDENT", timestamp: "1700000000.000400" });
    expect(await slackErrorOf(user.stars.add({ channel: "C0INCIDENT", timestamp: "1700000000.000400" }))).toBe("already_starred");
    await user.stars.remove({ channel: "C0INCIDENT", timestamp: "1700000000.000400" });
    expect(await slackErrorOf(user.stars.remove({ channel: "C0INCIDENT", timestamp: "1700000000.000400" }))).toBe("not_starred");
    expect((await stateOf(sandbox)).stars).toEqual([]);
  });
});

describe("stars.* refuse as their docs.slack.dev pages say", () => {
  it.each([
    ["no_item_specified", {}],
    ["no_item_specified", { timestamp: "1700000000.000100" }],
    ["channel_not_found", { channel: "C0NOPE" }],
    ["bad_timestamp", { channel: "C0INCIDENT", timestamp: "yesterday" }],
    ["message_not_found", { channel: "C0INCIDENT", timestamp: "1700000000.999999" }],
    ["file_not_found", { file: "F0NOPE" }],
    ["file_comment_not_found", { file: "F0RUNBOOK", file_comment: "Fc0NOPE" }],
  ])("answers %s for %j", async (error, args) => {
    const { sandbox, user } = await alice(withStars());
    expect(await slackErrorOf(user.apiCall("stars.add", args))).toBe(error);
    expect((await stateOf(sandbox)).stars).toEqual([]);
  });

  it("takes user tokens only: a bot token is not_allowed_token_type", async () => {
    const { bot } = await alice(withStars());
    expect(await slackErrorOf(bot.stars.list({}))).toBe("not_allowed_token_type");
    expect(await slackErrorOf(bot.stars.add({ channel: "C0GENERAL" }))).toBe("not_allowed_token_type");
  });
});

describe("the seed's saved items", () => {
  const seeded = () =>
    withStars({
      stars: [
        { user: "U0ALICE", channel: "C0INCIDENT", ts: "1700000000.000100", date_create: 1700000100 },
        { user: "U0BOB", file: "F0RUNBOOK", date_create: 1700000200 },
      ],
    });

  it("boot, list for their owner only, and round-trip through export", async () => {
    const { user } = await alice(seeded());
    expect((await user.stars.list({})).items).toEqual([
      expect.objectContaining({ type: "message", channel: "C0INCIDENT", date_create: 1700000100 }),
    ]);
    const parsed = slackTwin.parseSeed(seeded());
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    await inTwinWorld(slackTwin, seeded(), (w) => {
      expect(w.exportState()).toEqual(parsed.seed);
    });
  });

  it.each([
    ["a message that is not there", { user: "U0ALICE", channel: "C0INCIDENT", ts: "1700000009.000100" }, "stars[0].ts"],
    ["an unknown file", { user: "U0ALICE", file: "F0NOPE" }, "stars[0].file"],
    ["a file and a channel at once", { user: "U0ALICE", file: "F0RUNBOOK", channel: "C0GENERAL" }, "stars[0]"],
    ["an unknown person", { user: "U0NOBODY", channel: "C0GENERAL" }, "stars[0].user"],
  ])("refuses %s at its path", (_what, star, path) => {
    const r = slackTwin.parseSeed(withStars({ stars: [star] }));
    expect(r.ok ? [] : r.issues.map((i) => i.path)).toContain(path);
  });
});
