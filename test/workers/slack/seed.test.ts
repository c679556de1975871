// The Slack seed: its export round-trips, unknown and derived keys are refused at their path,
// and every referential-integrity rule of the issue refuses a seed that breaks it.
import { describe, expect, it } from "vitest";
import { slackTwin } from "../../../durable-objects/twins/slack";
import { DEFAULT_BOT, type SlackSeed } from "../../../durable-objects/twins/slack/seed";
import { postJson, STUB_TASK } from "../helpers";
import { inTwinWorld } from "../kit/world";
import { acmeSeed } from "./fixtures";

const parsed = (raw: unknown): SlackSeed => {
  const r = slackTwin.parseSeed(raw);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.seed;
};

/** The paths a seed is refused at. */
const refusedAt = (raw: unknown): string[] => {
  const r = slackTwin.parseSeed(raw);
  return r.ok ? [] : r.issues.map((i) => i.path);
};

type Json = Record<string, unknown>;
const clone = <T>(v: T): T => structuredClone(v);
const ch = (s: ReturnType<typeof acmeSeed>, c: number): Json => s.channels[c] as Json;
const msg = (s: ReturnType<typeof acmeSeed>, c: number, m: number): Json => (ch(s, c).messages as Json[])[m] as Json;
const reaction = (s: ReturnType<typeof acmeSeed>, c: number, m: number): Json => (msg(s, c, m).reactions as Json[])[0] as Json;

describe("slack seed", () => {
  it("export(boot(seed)) equals the seed with its defaults filled in, and exports again unchanged", async () => {
    const seed = parsed(acmeSeed());
    await inTwinWorld(slackTwin, acmeSeed(), (w) => {
      const exported = w.exportState();
      expect(exported).toEqual(seed);
      expect(parsed(exported)).toEqual(seed);
    });
  });

  it("the default world and a generated one round-trip too", async () => {
    for (const raw of [slackTwin.defaultSeed(), slackTwin.generateSeed?.(50)]) {
      await inTwinWorld(slackTwin, raw, (w) => {
        const exported = w.exportState();
        expect(parsed(exported)).toEqual(exported);
      });
    }
    const generated = parsed(slackTwin.generateSeed?.(25));
    expect(generated.channels[0]?.messages).toHaveLength(25);
  });

  it("fills Slack's defaults and adds a bot when the seed has none", () => {
    const seed = parsed({ users: [{ id: "U0ALICE", name: "alice" }], channels: [{ id: "C0GEN", name: "general", members: ["U0ALICE"], messages: [{ ts: "1700000000.000100", user: "U0ALICE", text: "hi" }] }] });
    expect(seed.installation.bot_user_id).toBe(DEFAULT_BOT.id);
    expect(seed.users.find((u) => u.id === DEFAULT_BOT.id)).toMatchObject({ is_bot: true, profile: { bot_id: DEFAULT_BOT.bot_id } });
    expect(seed.installation.scope.split(",")).not.toContain("chat:write.public");
    expect(seed.channels[0]).toMatchObject({ is_private: false, topic: { value: "" }, purpose: { value: "" } });
    expect(seed.users[0]?.presence).toBe("active");
  });

  it("refuses unknown and derived keys at their path", () => {
    const withUnknown = clone(acmeSeed()) as Json;
    (withUnknown.team as Json).plan = "enterprise";
    expect(refusedAt(withUnknown)).toEqual(["team.plan"]);
    const derived = clone(acmeSeed());
    msg(derived, 1, 0).reply_count = 2;
    (derived.channels[1] as Json).num_members = 3;
    (derived.files[0] as Json).size = 10;
    reaction(derived, 1, 0).count = 1;
    expect(refusedAt(derived).sort()).toEqual(
      ["channels[1].messages[0].reply_count", "channels[1].num_members", "files[0].size", "channels[1].messages[0].reactions[0].count"].sort(),
    );
  });

  it.each<[string, (s: ReturnType<typeof acmeSeed>) => void, string]>([
    ["a message by an unknown user", (s) => {
      msg(s, 1, 0).user = "U0NOBODY";
    }, "channels[1].messages[0].user"],
    ["an unknown member", (s) => void (ch(s, 0).members as string[]).push("U0NOBODY"), "channels[0].members[3]"],
    ["a reaction by an unknown user", (s) => {
      reaction(s, 1, 0).users = ["U0NOBODY"];
    }, "channels[1].messages[0].reactions[0].users[0]"],
    ["an unknown creator", (s) => {
      (s.channels[1] as Json).creator = "U0NOBODY";
    }, "channels[1].creator"],
    ["a file by an unknown user", (s) => {
      (s.files[0] as Json).user = "U0NOBODY";
    }, "files[0].user"],
    ["a usergroup with an unknown user", (s) => void s.usergroups[0]?.users.push("U0NOBODY"), "usergroups[0].users[2]"],
    ["an unknown authed_user", (s) => {
      (s.installation.authed_user as Json).id = "U0NOBODY";
    }, "installation.authed_user.id"],
    ["a scripted reply by an unknown user", (s) => {
      (s.scripted_replies[0] as Json).user = "U0NOBODY";
    }, "scripted_replies[0].user"],
    ["a scripted reply by the bot", (s) => {
      (s.scripted_replies[0] as Json).user = "U0BOT";
    }, "scripted_replies[0].user"],
    ["a scripted reply by a non-member", (s) => {
      (s.scripted_replies[0] as Json).user = "U0CAROL";
    }, "scripted_replies[0].user"],
    ["a duplicate user id", (s) => void s.users.push({ id: "U0BOB", name: "bobby" } as never), "users[4].id"],
    ["a duplicate user name", (s) => void s.users.push({ id: "U0BOBBY", name: "bob" } as never), "users[4].name"],
    ["a duplicate channel name", (s) => {
      (s.channels[2] as Json).name = "general";
    }, "channels[2].name"],
    ["a bad channel name", (s) => {
      (s.channels[2] as Json).name = "Random Stuff";
    }, "channels[2].name"],
    ["a badly shaped user id", (s) => {
      (s.users[3] as Json).id = "carol";
    }, "users[3].id"],
    ["a badly shaped channel id", (s) => {
      (s.channels[2] as Json).id = "X0RANDOM";
    }, "channels[2].id"],
    ["a second general channel", (s) => {
      (s.channels[2] as Json).is_general = true;
    }, "channels[2].is_general"],
    ["a private general channel", (s) => {
      (s.channels[0] as Json).is_private = true;
    }, "channels[0].is_general"],
    ["a bad ts", (s) => {
      msg(s, 1, 0).ts = "1700000000.1";
    }, "channels[1].messages[0].ts"],
    ["a duplicate ts", (s) => {
      msg(s, 1, 3).ts = "1700000000.000100";
    }, "channels[1].messages[3].ts"],
    ["a thread_ts naming no message", (s) => {
      msg(s, 1, 1).thread_ts = "1600000000.000100";
    }, "channels[1].messages[1].thread_ts"],
    ["a thread_ts naming a reply", (s) => {
      msg(s, 1, 2).thread_ts = "1700000000.000200";
    }, "channels[1].messages[2].thread_ts"],
    ["a broadcast that is not a reply", (s) => {
      msg(s, 1, 0).subtype = "thread_broadcast";
    }, "channels[1].messages[0].subtype"],
    ["an unknown subtype", (s) => {
      msg(s, 1, 0).subtype = "bot_message";
    }, "channels[1].messages[0].subtype"],
    ["a pin naming no message", (s) => void (ch(s, 1).pins as string[]).push("1600000000.000100"), "channels[1].pins[1]"],
    ["a message listing an unknown file", (s) => {
      msg(s, 1, 3).files = ["F0NOPE"];
    }, "channels[1].messages[3].files[0]"],
    ["a bot_id that is not its user's", (s) => {
      msg(s, 1, 0).bot_id = "B0BOT";
    }, "channels[1].messages[0].bot_id"],
    ["an edit by an unknown user", (s) => {
      msg(s, 1, 0).edited = { user: "U0NOBODY", ts: "1700000000.000900" };
    }, "channels[1].messages[0].edited.user"],
    ["a message with no content", (s) => void delete msg(s, 1, 0).text, "channels[1].messages[0]"],
    ["a scheduled message for an unknown channel", (s) => {
      (s.scheduled_messages[0] as Json).channel_id = "C0NOPE";
    }, "scheduled_messages[0].channel_id"],
    ["an installation bot that is not a bot", (s) => {
      (s.installation as Json).bot_user_id = "U0ALICE";
    }, "installation.bot_user_id"],
    ["both calls and seconds", (s) => {
      (s.scripted_replies[0] as Json).after = { calls: 1, seconds: 2 };
    }, "scripted_replies[0].after"],
  ])("refuses %s at its path", (_what, mutate, path) => {
    const seed = clone(acmeSeed());
    mutate(seed);
    expect(refusedAt(seed)).toContain(path);
  });

  it("refuses several bots with no installation naming one", () => {
    const seed = clone(acmeSeed()) as Json;
    delete seed.installation;
    (seed.users as Json[]).push({ id: "U0BOT2", name: "otherbot", is_bot: true, profile: { bot_id: "B0BOT2" } });
    expect(refusedAt(seed)).toEqual(["installation.bot_user_id"]);
  });

  it("a sandbox with a broken seed is refused with 422 invalid_seed naming the path", async () => {
    const seed = clone(acmeSeed());
    msg(seed, 1, 0).user = "U0NOBODY";
    const res = await postJson("/v1/sandboxes", { task_source: STUB_TASK, twins: ["slack"], seed });
    expect(res.status).toBe(422);
    const body = await res.json<{ error: { code: string; details?: unknown } }>();
    expect(JSON.stringify(body)).toContain("invalid_seed");
    expect(JSON.stringify(body)).toContain("channels[1].messages[0].user");
  });
});

describe("slack export after a run", () => {
  it("is a valid seed that boots into the same world", async () => {
    const parentTs = "1700000000.000100";
    const first = await inTwinWorld(slackTwin, acmeSeed(), (w) => {
      const ok = (method: string, body: Record<string, unknown>) => {
        const res = w.call("POST", `/api/${method}`, { body });
        expect(res.body, method).toMatchObject({ ok: true });
        return res.body as Record<string, unknown>;
      };
      const created = ok("conversations.create", { name: "war-room" }).channel as { id: string };
      ok("conversations.invite", { channel: created.id, users: "U0ALICE,U0BOB" });
      ok("conversations.setTopic", { channel: created.id, topic: "Sev1" });
      const posted = ok("chat.postMessage", { channel: created.id, text: "Bridge open", blocks: [{ type: "section", text: { type: "mrkdwn", text: "*Bridge*" } }] });
      ok("chat.postMessage", { channel: "C0INCIDENT", thread_ts: parentTs, text: "rollback please", reply_broadcast: true });
      ok("chat.update", { channel: created.id, ts: posted.ts, text: "Bridge open: join now" });
      ok("reactions.add", { channel: created.id, timestamp: posted.ts, name: "rotating_light" });
      ok("pins.add", { channel: created.id, timestamp: posted.ts });
      ok("bookmarks.add", { channel_id: created.id, title: "Status page", type: "link", link: "https://status.acme.test" });
      ok("conversations.open", { users: "U0BOB" });
      ok("chat.postMessage", { channel: "U0BOB", text: "can you join?" });
      ok("chat.scheduleMessage", { channel: created.id, text: "Check in", post_at: Math.floor(Date.now() / 1000) + 3600 });
      const reserved = ok("files.getUploadURLExternal", { filename: "timeline.txt", length: 5 }) as { file_id: string };
      w.call("POST", `/upload/v1/${reserved.file_id}`, { rawBody: "09:00", headers: { "content-type": "text/plain" } });
      ok("files.completeUploadExternal", { files: [{ id: reserved.file_id, title: "Timeline" }], channel_id: created.id });
      ok("conversations.archive", { channel: created.id });
      ok("auth.test", {});
      ok("auth.test", {});
      return w.exportState();
    });
    const reparsed = slackTwin.parseSeed(first);
    expect(reparsed.ok ? [] : reparsed.issues).toEqual([]);
    expect(first.scripted_replies).toEqual([]);
    const war = first.channels.find((c) => c.name === "war-room");
    expect(war).toMatchObject({ is_archived: true, topic: { value: "Sev1", creator: "U0BOT" }, bookmarks: [{ title: "Status page" }] });
    expect(first.files.find((f) => f.name === "timeline.txt")).toMatchObject({ title: "Timeline", content: "09:00" });
    await inTwinWorld(slackTwin, first, (w) => {
      expect(w.exportState()).toEqual(first);
    });
  });
});
