// Conversations and people through WebClient: listing with types and pages, info, members,
// creating, joining, inviting, kicking, leaving, archiving, renaming, topics and purposes, DMs,
// users and their lookups, and each refusal Slack gives.
import { describe, expect, it } from "vitest";
import { slackErrorOf, slackSandbox, stateOf } from "./client";
import { acmeSeed } from "./fixtures";

describe("slack conversations", () => {
  it("lists what the bot can see, by type, a page at a time", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const pub = await web.conversations.list({});
    expect(pub.channels?.map((c) => c.id)).toEqual(["C0GENERAL", "C0INCIDENT", "C0RANDOM"]);
    expect(pub.channels?.find((c) => c.id === "C0RANDOM")).toMatchObject({ is_member: false, num_members: 2, is_channel: true });
    const all = await web.conversations.list({ types: "public_channel,private_channel,im" });
    // The private channel the bot is not in stays hidden; its DM with alice shows.
    expect(all.channels?.map((c) => c.id)).toEqual(["C0GENERAL", "C0INCIDENT", "C0RANDOM", "D0ALICE"]);
    const ids: string[] = [];
    for await (const page of web.paginate("conversations.list", { limit: 2 })) {
      ids.push(...((page as { channels?: { id?: string }[] }).channels ?? []).map((c) => c.id ?? ""));
    }
    expect(ids).toEqual(["C0GENERAL", "C0INCIDENT", "C0RANDOM"]);
    const info = await web.conversations.info({ channel: "C0INCIDENT", include_num_members: true });
    expect(info.channel).toMatchObject({
      name: "incidents",
      topic: { value: "Sev2+ only" },
      creator: "U0ALICE",
      num_members: 3,
      is_member: true,
    });
    const members = await web.conversations.members({ channel: "C0INCIDENT", limit: 2 });
    expect(members.members).toEqual(["U0ALICE", "U0BOB"]);
    expect(members.response_metadata?.next_cursor).not.toBe("");
  });

  it("creates, renames, sets topic and purpose (answering the channel), archives and unarchives", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    const created = await web.conversations.create({ name: "deploys" });
    const id = String(created.channel?.id);
    expect(id).toMatch(/^C/);
    expect(created.channel).toMatchObject({ name: "deploys", creator: "U0BOT", is_member: true, is_private: false });
    expect(await slackErrorOf(web.conversations.create({ name: "deploys" }))).toBe("name_taken");
    expect(await slackErrorOf(web.conversations.create({ name: "Bad Name!" }))).toBe("invalid_name_specials");
    const renamed = await web.conversations.rename({ channel: id, name: "releases" });
    expect(renamed.channel?.name).toBe("releases");
    const topic = await web.conversations.setTopic({ channel: id, topic: "Ship it" });
    expect(topic.channel).toMatchObject({ id, topic: { value: "Ship it", creator: "U0BOT" } });
    const purpose = await web.conversations.setPurpose({ channel: id, purpose: "Release chatter" });
    expect(purpose.channel?.purpose?.value).toBe("Release chatter");
    await web.conversations.archive({ channel: id });
    expect(await slackErrorOf(web.conversations.archive({ channel: id }))).toBe("already_archived");
    expect(await slackErrorOf(web.chat.postMessage({ channel: id, text: "hi" }))).toBe("is_archived");
    expect(await slackErrorOf(web.conversations.archive({ channel: "C0GENERAL" }))).toBe("cant_archive_general");
    const state = await stateOf(sandbox);
    const exported = (state.channels as { id: string; is_archived: boolean; topic: { value: string; last_set: number } }[]).find(
      (c) => c.id === id,
    );
    expect(exported).toMatchObject({ is_archived: true, topic: { value: "Ship it" } });
    expect(exported?.topic.last_set).toBeGreaterThan(0);
    // Slack: "Bot tokens (xoxb-...) cannot currently be used to unarchive conversations".
    expect(await slackErrorOf(web.conversations.unarchive({ channel: id }))).toBe("not_in_channel");
  });

  it("joins, invites, kicks and leaves with Slack's refusals", async () => {
    const { web } = await slackSandbox(acmeSeed());
    expect(await slackErrorOf(web.conversations.invite({ channel: "C0RANDOM", users: "U0CAROL" }))).toBe("not_in_channel");
    const joined = await web.conversations.join({ channel: "C0RANDOM" });
    expect(joined.channel?.is_member).toBe(true);
    expect(await slackErrorOf(web.conversations.join({ channel: "C0LEADS" }))).toBe("channel_not_found");
    await web.conversations.invite({ channel: "C0RANDOM", users: "U0CAROL" });
    expect(await slackErrorOf(web.conversations.invite({ channel: "C0RANDOM", users: "U0CAROL" }))).toBe("already_in_channel");
    expect(await slackErrorOf(web.conversations.invite({ channel: "C0RANDOM", users: "U0NOBODY" }))).toBe("user_not_found");
    expect((await web.conversations.members({ channel: "C0RANDOM" })).members).toContain("U0CAROL");
    const history = await web.conversations.history({ channel: "C0RANDOM", limit: 2 });
    expect(history.messages?.map((m) => m.subtype)).toEqual(["channel_join", "channel_join"]);
    await web.conversations.kick({ channel: "C0RANDOM", user: "U0CAROL" });
    expect(await slackErrorOf(web.conversations.kick({ channel: "C0RANDOM", user: "U0CAROL" }))).toBe("not_in_channel");
    expect(await slackErrorOf(web.conversations.kick({ channel: "C0GENERAL", user: "U0BOB" }))).toBe("cant_kick_from_general");
    expect(await slackErrorOf(web.conversations.leave({ channel: "C0GENERAL" }))).toBe("cant_leave_general");
    await web.conversations.leave({ channel: "C0RANDOM" });
    expect(await slackErrorOf(web.conversations.history({ channel: "C0RANDOM" }))).toBe("not_in_channel");
  });

  it("opens a DM with a user, posts to it by user id, and marks it read", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const alice = await web.conversations.open({ users: "U0ALICE" });
    expect(alice).toMatchObject({ already_open: true, channel: { id: "D0ALICE" } });
    const bob = await web.conversations.open({ users: "U0BOB" });
    expect(bob.channel?.id).toMatch(/^D/);
    expect(bob.already_open).toBe(false);
    const posted = await web.chat.postMessage({ channel: "U0BOB", text: "hey bob" });
    expect(posted.channel).toBe(bob.channel?.id);
    await web.conversations.mark({ channel: String(bob.channel?.id), ts: String(posted.ts) });
    const dms = await web.users.conversations({ types: "im" });
    expect(dms.channels?.map((c) => c.id).sort()).toEqual(["D0ALICE", String(bob.channel?.id)].sort());
  });

  it("serves users, lookups, profiles and presence", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const team = await web.team.info();
    expect(team.team).toMatchObject({ id: "T0ACME", name: "Acme", domain: "acme" });
    const list = await web.users.list({ limit: 2 });
    expect(list.members?.map((m) => m.id)).toEqual(["U0ALICE", "U0BOB"]);
    const everyone: string[] = [];
    for await (const page of web.paginate("users.list", { limit: 3 }))
      everyone.push(...((page as { members?: { id?: string }[] }).members ?? []).map((m) => m.id ?? ""));
    expect(everyone).toEqual(["U0ALICE", "U0BOB", "U0BOT", "U0CAROL"]);
    const alice = await web.users.info({ user: "U0ALICE" });
    expect(alice.user).toMatchObject({
      name: "alice",
      real_name: "Alice Smith",
      tz: "Europe/London",
      profile: { email: "alice@acme.test", title: "SRE" },
    });
    expect((await web.users.lookupByEmail({ email: "bob@acme.test" })).user?.id).toBe("U0BOB");
    expect(await slackErrorOf(web.users.lookupByEmail({ email: "nobody@acme.test" }))).toBe("users_not_found");
    expect(await slackErrorOf(web.users.info({ user: "U0NOBODY" }))).toBe("user_not_found");
    expect((await web.users.profile.get({ user: "U0ALICE" })).profile?.title).toBe("SRE");
    expect((await web.users.getPresence({ user: "U0BOB" })).presence).toBe("away");
    const convs = await web.users.conversations({ user: "U0ALICE", types: "public_channel,private_channel" });
    // alice is in #leads, but the bot cannot see it.
    expect(convs.channels?.map((c) => c.id)).toEqual(["C0GENERAL", "C0INCIDENT", "C0RANDOM"]);
    expect((await web.usergroups.list({ include_users: true })).usergroups?.[0]).toMatchObject({
      id: "S0ONCALL",
      handle: "oncall",
      users: ["U0ALICE", "U0BOB"],
    });
    expect((await web.emoji.list()).emoji).toEqual({});
  });

  it("hides emails from a token without users:read.email", async () => {
    const seed = acmeSeed();
    const { web } = await slackSandbox({ ...seed, installation: { ...seed.installation, scope: "users:read,chat:write" } });
    const alice = await web.users.info({ user: "U0ALICE" });
    expect(alice.user?.profile?.email).toBeUndefined();
    expect(await slackErrorOf(web.users.lookupByEmail({ email: "bob@acme.test" }))).toBe("missing_scope");
  });
});
