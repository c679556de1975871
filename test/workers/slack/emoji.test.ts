// Emoji through WebClient: emoji.list answers the workspace's custom emoji from the seed, a
// reaction takes a standard name (with a skin tone or not) or a custom one, and a name Slack does
// not know is refused `invalid_name` and writes nothing.
import { describe, expect, it } from "vitest";
import { knownEmoji } from "../../../durable-objects/twins/slack/store/emoji";
import { parseSlackSeed } from "../../../durable-objects/twins/slack/seed";
import { slackErrorOf, slackSandbox, stateOf } from "./client";
import { acmeSeed } from "./fixtures";

const PARENT = "1700000000.000100";
const EMOJI = { shipit: "https://emoji.acme.test/shipit.png", squirrel: "alias:shipit", yes: "alias:white_check_mark" };

describe("slack emoji.list", () => {
  it("answers the workspace's custom emoji, aliases included, and exports them", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed({ emoji: EMOJI }));
    const listed = await web.emoji.list();
    expect(listed.emoji).toEqual(EMOJI);
    expect((await stateOf(sandbox)).emoji).toEqual(EMOJI);
  });

  it("answers an empty map for a workspace without custom emoji", async () => {
    const { web } = await slackSandbox(acmeSeed());
    expect((await web.emoji.list()).emoji).toEqual({});
  });

  it("refuses a seed that shadows a standard emoji or aliases a name that does not exist", () => {
    const shadow = parseSlackSeed(acmeSeed({ emoji: { tada: "https://x.test/t.png" } }));
    expect(shadow.ok).toBe(false);
    const dangling = parseSlackSeed(acmeSeed({ emoji: { ghost: "alias:no_such_emoji" } }));
    expect(dangling.ok).toBe(false);
  });
});

describe("slack reactions know which emoji exist", () => {
  it("takes standard names, skin tones, colons and the workspace's own emoji", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed({ emoji: EMOJI }));
    for (const name of ["rocket", ":tada:", "+1::skin-tone-3", "shipit", "squirrel"]) {
      await web.reactions.add({ channel: "C0INCIDENT", timestamp: PARENT, name });
    }
    const got = await web.reactions.get({ channel: "C0INCIDENT", timestamp: PARENT });
    expect(got.message?.reactions?.map((r) => r.name)).toEqual(["eyes", "rocket", "tada", "+1::skin-tone-3", "shipit", "squirrel"]);
    const state = await stateOf(sandbox);
    const incident = (state.channels as { id: string; messages: { reactions?: { name: string }[] }[] }[]).find(
      (c) => c.id === "C0INCIDENT",
    );
    expect(incident?.messages[0]?.reactions?.map((r) => r.name)).toContain("shipit");
  });

  it("refuses a name Slack does not know with invalid_name, and writes nothing", async () => {
    const { web } = await slackSandbox(acmeSeed());
    for (const name of ["definitely_not_an_emoji", "shipit", "+1::skin-tone-9", "thumbsup::skin-tone-2::x"]) {
      expect(await slackErrorOf(web.reactions.add({ channel: "C0INCIDENT", timestamp: PARENT, name }))).toBe("invalid_name");
    }
    expect(await slackErrorOf(web.reactions.remove({ channel: "C0INCIDENT", timestamp: PARENT, name: "nope_nope" }))).toBe("invalid_name");
    const got = await web.reactions.get({ channel: "C0INCIDENT", timestamp: PARENT });
    expect(got.message?.reactions?.map((r) => r.name)).toEqual(["eyes"]);
  });

  it("knows the standard names by the emoji-data set (a plain function)", () => {
    expect(knownEmoji("white_check_mark", {})).toBe(true);
    expect(knownEmoji("thumbsup", {})).toBe(true);
    expect(knownEmoji("skin-tone-2", {})).toBe(true);
    expect(knownEmoji("partyparrot", {})).toBe(false);
    expect(knownEmoji("partyparrot", { partyparrot: "https://x.test/p.gif" })).toBe(true);
    expect(knownEmoji("toString", {})).toBe(false);
  });
});
