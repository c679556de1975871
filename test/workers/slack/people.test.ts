// People and groups through WebClient: user groups (create, list, update, members, enable and
// disable), group DMs (conversations.open with several users), reminders, the caller's profile,
// status and presence, and do-not-disturb; every change shows in the exported world.
import { describe, expect, it } from "vitest";
import { slackTwin } from "../../../durable-objects/twins/slack";
import { reminderTime } from "../../../durable-objects/twins/slack/routes/people";
import type { SlackSeed } from "../../../durable-objects/twins/slack/seed";
import { ACME_SCOPES, acmeSeed } from "./fixtures";
import { slackErrorOf, slackSandbox, stateOf, webFor } from "./client";

const USER_SCOPES = "users.profile:write,users.profile:read,users:read,users:write,reminders:read,reminders:write,dnd:read,dnd:write";
const seed = (extra: Record<string, unknown> = {}) =>
  acmeSeed({
    installation: {
      app_id: "A0DEPLOY",
      bot_user_id: "U0BOT",
      scope: `${ACME_SCOPES},usergroups:write,mpim:write,dnd:read`,
      authed_user: { id: "U0ALICE", scope: USER_SCOPES },
    },
    ...extra,
  });

async function sandboxWithUser(extra: Record<string, unknown> = {}) {
  const { sandbox, web } = await slackSandbox(seed(extra));
  return { sandbox, web, alice: webFor(sandbox, { token: sandbox.provider_credentials.slack.user_token }) };
}

interface ExportedGroup {
  id: string;
  handle: string;
  name: string;
  users: string[];
  date_delete: number;
}

describe("slack user groups", () => {
  it("creates a group, sets its members, updates it, disables and enables it, all exported", async () => {
    const { sandbox, web } = await sandboxWithUser();
    const created = await web.usergroups.create({ name: "Release managers", handle: "release", description: "Ship it" });
    const id = String(created.usergroup?.id);
    expect(id).toMatch(/^S/);
    expect(created.usergroup).toMatchObject({ name: "Release managers", handle: "release", date_delete: 0, is_usergroup: true });
    expect(await slackErrorOf(web.usergroups.create({ name: "Other", handle: "release" }))).toBe("handle_already_exists");
    expect(await slackErrorOf(web.usergroups.create({ name: "On-call" }))).toBe("name_already_exists");
    const updated = await web.usergroups.users.update({ usergroup: id, users: "U0ALICE,U0CAROL" });
    expect(updated.usergroup?.users).toEqual(["U0ALICE", "U0CAROL"]);
    expect(await slackErrorOf(web.usergroups.users.update({ usergroup: id, users: "U0NOBODY" }))).toBe("invalid_users");
    expect((await web.usergroups.users.list({ usergroup: id })).users).toEqual(["U0ALICE", "U0CAROL"]);
    const renamed = await web.usergroups.update({ usergroup: id, name: "Releasers" });
    expect(renamed.usergroup?.name).toBe("Releasers");
    await web.usergroups.disable({ usergroup: id });
    expect((await web.usergroups.list()).usergroups?.map((g) => g.id)).toEqual(["S0ONCALL"]);
    const all = await web.usergroups.list({ include_disabled: true, include_users: true });
    expect(all.usergroups?.find((g) => g.id === id)?.date_delete).toBeGreaterThan(0);
    let groups = (await stateOf(sandbox)).usergroups as ExportedGroup[];
    expect(groups.find((g) => g.id === id)).toMatchObject({ name: "Releasers", handle: "release", users: ["U0ALICE", "U0CAROL"] });
    expect(groups.find((g) => g.id === id)?.date_delete).toBeGreaterThan(0);
    await web.usergroups.enable({ usergroup: id });
    groups = (await stateOf(sandbox)).usergroups as ExportedGroup[];
    expect(groups.find((g) => g.id === id)?.date_delete).toBe(0);
    expect(await slackErrorOf(web.usergroups.users.list({ usergroup: "S0NOPE" }))).toBe("no_such_subteam");
  });

  it("refuses writes without usergroups:write, naming the scope", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const err: unknown = await web.usergroups.create({ name: "x" }).catch((e: unknown) => e);
    expect((err as { data?: unknown }).data).toMatchObject({ error: "missing_scope", needed: "usergroups:write" });
  });
});

describe("slack group DMs", () => {
  it("opens a group DM with several users, finds it again, lists it as mpim and exports it", async () => {
    const { sandbox, web } = await sandboxWithUser();
    const opened = await web.conversations.open({ users: "U0ALICE,U0BOB", return_im: true });
    const id = String(opened.channel?.id);
    expect(opened.channel).toMatchObject({
      is_mpim: true,
      is_private: true,
      is_channel: false,
      is_group: false,
      name: "mpdm-alice--bob--deploybot-1",
    });
    const again = await web.conversations.open({ users: "U0BOB,U0ALICE" });
    expect(again).toMatchObject({ already_open: true, channel: { id } });
    expect((await web.conversations.members({ channel: id })).members).toEqual(["U0ALICE", "U0BOB", "U0BOT"]);
    await web.chat.postMessage({ channel: id, text: "three of us" });
    const listed = await web.conversations.list({ types: "mpim" });
    expect(listed.channels?.map((c) => c.id)).toEqual([id]);
    const privates = await web.conversations.list({ types: "private_channel" });
    expect(privates.channels?.map((c) => c.id)).not.toContain(id);
    const exported = (
      (await stateOf(sandbox)).channels as { id: string; is_mpim?: boolean; members: string[]; messages: { text: string }[] }[]
    ).find((c) => c.id === id);
    expect(exported).toMatchObject({ is_mpim: true, members: ["U0ALICE", "U0BOB", "U0BOT"], messages: [{ text: "three of us" }] });
    expect(await slackErrorOf(web.conversations.open({ users: "U0ALICE,U0NOBODY" }))).toBe("user_not_found");
  });
});

describe("slack reminders", () => {
  it("adds, lists, reads, completes and deletes the user's reminders; a bot token is refused", async () => {
    const { sandbox, web, alice } = await sandboxWithUser();
    const added = await alice.reminders.add({ text: "Write the post-mortem", time: "in 2 hours" });
    const id = String(added.reminder?.id);
    expect(added.reminder).toMatchObject({
      creator: "U0ALICE",
      user: "U0ALICE",
      text: "Write the post-mortem",
      complete_ts: 0,
      recurring: false,
    });
    expect((await alice.reminders.list()).reminders?.map((r) => r.id)).toEqual([id]);
    expect((await alice.reminders.info({ reminder: id })).reminder?.text).toBe("Write the post-mortem");
    expect(await slackErrorOf(alice.reminders.add({ text: "x", time: "someday maybe" }))).toBe("cannot_parse");
    expect(await slackErrorOf(web.reminders.list())).toBe("not_allowed_token_type");
    await alice.reminders.complete({ reminder: id });
    const exported = (await stateOf(sandbox)).reminders as { id: string; complete_ts: number }[];
    expect(exported.find((r) => r.id === id)?.complete_ts).toBeGreaterThan(0);
    await alice.reminders.delete({ reminder: id });
    expect(await slackErrorOf(alice.reminders.info({ reminder: id }))).toBe("not_found");
    expect((await stateOf(sandbox)).reminders).toEqual([]);
  });

  it("reads a reminder's time as Slack takes it (a plain function)", () => {
    const now = 1_800_000_000;
    expect(reminderTime("1900000000", now)).toBe(1_900_000_000);
    expect(reminderTime("600", now)).toBe(now + 600);
    expect(reminderTime("in 15 minutes", now)).toBe(now + 900);
    expect(reminderTime("in 1 day", now)).toBe(now + 86400);
    expect(reminderTime("every Thursday", now)).toBeUndefined();
  });
});

describe("slack profile, status, presence and do-not-disturb", () => {
  it("sets the user's status and title, shown by users.profile.get and users.info and exported", async () => {
    const { sandbox, web, alice } = await sandboxWithUser();
    const set = await alice.users.profile.set({
      profile: { status_text: "On call", status_emoji: ":pager:", status_expiration: 0, title: "Lead SRE" },
    });
    expect(set.profile).toMatchObject({ status_text: "On call", status_emoji: ":pager:", title: "Lead SRE" });
    expect((await web.users.profile.get({ user: "U0ALICE" })).profile).toMatchObject({ status_text: "On call", status_emoji: ":pager:" });
    expect((await web.users.info({ user: "U0ALICE" })).user?.profile?.title).toBe("Lead SRE");
    const users = (await stateOf(sandbox)).users as { id: string; profile: Record<string, unknown> }[];
    expect(users.find((u) => u.id === "U0ALICE")?.profile).toMatchObject({
      status_text: "On call",
      status_emoji: ":pager:",
      title: "Lead SRE",
    });
  });

  it("refuses an emoji that does not exist, another user's profile, and a bot token", async () => {
    const { web, alice } = await sandboxWithUser();
    expect(await slackErrorOf(alice.users.profile.set({ profile: { status_emoji: ":not_an_emoji_at_all:" } }))).toBe(
      "profile_status_set_failed_not_valid_emoji",
    );
    expect(await slackErrorOf(alice.users.profile.set({ profile: { status_emoji: "pager" } }))).toBe(
      "profile_status_set_failed_not_emoji_syntax",
    );
    expect(await slackErrorOf(alice.users.profile.set({ user: "U0BOB", profile: { status_text: "hi" } }))).toBe("not_admin");
    expect(await slackErrorOf(web.users.profile.set({ profile: { status_text: "bot" } }))).toBe("not_allowed_token_type");
    expect((await web.users.profile.get({ user: "U0ALICE" })).profile?.status_text).toBe("");
  });

  it("sets presence and snoozes notifications", async () => {
    const { sandbox, web, alice } = await sandboxWithUser();
    await alice.users.setPresence({ presence: "away" });
    expect((await web.users.getPresence({ user: "U0ALICE" })).presence).toBe("away");
    expect(await slackErrorOf(alice.users.setPresence({ presence: "busy" as never }))).toBe("invalid_presence");
    expect(await slackErrorOf(alice.dnd.endSnooze())).toBe("snooze_not_active");
    const snoozed = await alice.dnd.setSnooze({ num_minutes: 30 });
    expect(snoozed).toMatchObject({ snooze_enabled: true, snooze_remaining: 1800 });
    expect(await alice.dnd.info()).toMatchObject({ snooze_enabled: true, snooze_remaining: 1800 });
    // Another user sees no snooze fields.
    const seen = await web.dnd.info({ user: "U0ALICE" });
    expect(seen).toMatchObject({ dnd_enabled: true });
    expect((seen as unknown as Record<string, unknown>).snooze_enabled).toBeUndefined();
    const users = (await stateOf(sandbox)).users as { id: string; presence: string; dnd?: { snooze_enabled: boolean } }[];
    expect(users.find((u) => u.id === "U0ALICE")).toMatchObject({ presence: "away", dnd: { snooze_enabled: true } });
    await alice.dnd.endSnooze();
    expect(((await alice.dnd.info()) as unknown as Record<string, unknown>).snooze_enabled).toBe(false);
  });
});

describe("slack do-not-disturb across the team", () => {
  const scheduled = { dnd_enabled: true, next_dnd_start_ts: 1, next_dnd_end_ts: 4102444800 };
  const withSchedule = (id: string) => ({
    users: (seed().users as Record<string, unknown>[]).map((u) => (u.id === id ? { ...u, dnd: scheduled } : u)),
  });

  it("answers several users' schedules with dnd.teamInfo, and refuses no users or an unknown one", async () => {
    const { web } = await sandboxWithUser(withSchedule("U0BOB"));
    const info = await web.dnd.teamInfo({ users: "U0ALICE,U0BOB" });
    expect(info.users).toEqual({
      U0ALICE: { dnd_enabled: false, next_dnd_start_ts: 0, next_dnd_end_ts: 0 },
      U0BOB: scheduled,
    });
    expect(await slackErrorOf(web.apiCall("dnd.teamInfo", {}))).toBe("no_users_provided");
    expect(await slackErrorOf(web.dnd.teamInfo({ users: "U0NOBODY" }))).toBe("user_not_visible");
  });

  it("ends the caller's snooze, or the scheduled session under way, with dnd.endDnd; not_in_dnd otherwise", async () => {
    const plain = await sandboxWithUser();
    expect(await slackErrorOf(plain.alice.dnd.endDnd())).toBe("not_in_dnd");
    await plain.alice.dnd.setSnooze({ num_minutes: 10 });
    await plain.alice.dnd.endDnd();
    expect(((await plain.alice.dnd.info()) as unknown as Record<string, unknown>).snooze_enabled).toBe(false);
    expect(await slackErrorOf(plain.web.apiCall("dnd.endDnd", {}))).toBe("not_allowed_token_type");

    const { alice } = await sandboxWithUser(withSchedule("U0ALICE"));
    await alice.dnd.endDnd();
    expect(await alice.dnd.info()).toMatchObject({
      dnd_enabled: true,
      next_dnd_start_ts: 1 + 86_400,
      next_dnd_end_ts: 4102444800 + 86_400,
    });
  });
});

describe("slack user group checks", () => {
  const checkOf = (id: string) => {
    const check = slackTwin.checks.find((c) => c.id === `slack.${id}`);
    if (!check) throw new Error(`no check ${id}`);
    return check;
  };

  it("reads a group's members in the final state, by handle and by name", async () => {
    const { sandbox, web } = await sandboxWithUser();
    await web.usergroups.users.update({ usergroup: "S0ONCALL", users: "U0ALICE,U0CAROL" });
    const final = (await stateOf(sandbox)) as unknown as SlackSeed;
    const includes = (group: string, user: string) =>
      checkOf("usergroup-includes").evaluate({ args: { group, user }, initial: undefined, final, tape: [] }).status;
    const excludes = (group: string, user: string) =>
      checkOf("usergroup-excludes").evaluate({ args: { group, user }, initial: undefined, final, tape: [] }).status;
    expect(includes("oncall", "carol")).toBe("passed");
    expect(includes("@oncall", "U0ALICE")).toBe("passed");
    expect(includes("oncall", "bob")).toBe("failed");
    expect(excludes("oncall", "bob")).toBe("passed");
    expect(excludes("oncall", "carol")).toBe("failed");
    expect(excludes("nosuchgroup", "bob")).toBe("passed");
    expect(includes("nosuchgroup", "bob")).toBe("failed");
  });
});
