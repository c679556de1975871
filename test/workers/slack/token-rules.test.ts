// Which token may do what, through WebClient: a bot token cannot unarchive (Slack's documented
// restriction), user-token methods refuse a bot with not_allowed_token_type, a missing scope is
// missing_scope with needed and provided; and a deleted file answers file_deleted (its tombstone).
import { describe, expect, it } from "vitest";
import { ACME_SCOPES, acmeSeed } from "./fixtures";
import { slackErrorOf, slackSandbox, stateOf, webFor } from "./client";

const withUserScopes = (scope: string) =>
  acmeSeed({ installation: { app_id: "A0DEPLOY", bot_user_id: "U0BOT", scope: ACME_SCOPES, authed_user: { id: "U0ALICE", scope } } });

describe("slack token rules", () => {
  it("refuses a bot token unarchiving a channel; the authed user with channels:write may", async () => {
    const { sandbox, web } = await slackSandbox(withUserScopes("channels:write"));
    const created = await web.conversations.create({ name: "old-project" });
    const id = String(created.channel?.id);
    await web.conversations.invite({ channel: id, users: "U0ALICE" });
    await web.conversations.archive({ channel: id });
    expect(await slackErrorOf(web.conversations.unarchive({ channel: id }))).toBe("not_in_channel");
    const user = webFor(sandbox, { token: sandbox.provider_credentials.slack.user_token });
    await user.conversations.unarchive({ channel: id });
    const channels = (await stateOf(sandbox)).channels as { id: string; is_archived: boolean }[];
    expect(channels.find((c) => c.id === id)?.is_archived).toBe(false);
  });

  it("answers missing_scope with the scope needed and the scopes provided", async () => {
    const { sandbox } = await slackSandbox(withUserScopes("search:read"));
    const user = webFor(sandbox, { token: sandbox.provider_credentials.slack.user_token });
    const err: unknown = await user.conversations.unarchive({ channel: "C0RANDOM" }).catch((e: unknown) => e);
    expect((err as { data?: unknown }).data).toMatchObject({
      ok: false,
      error: "missing_scope",
      needed: "channels:write",
      provided: "search:read",
    });
  });

  it("refuses user-token methods to a bot token with not_allowed_token_type", async () => {
    const { web } = await slackSandbox(acmeSeed());
    expect(await slackErrorOf(web.search.messages({ query: "db" }))).toBe("not_allowed_token_type");
    for (const call of [
      () => web.users.profile.set({ profile: { status_text: "away" } }),
      () => web.dnd.setSnooze({ num_minutes: 10 }),
      () => web.reminders.list(),
      () => web.files.sharedPublicURL({ file: "F0RUNBOOK" }),
    ]) {
      expect(await slackErrorOf(call())).toBe("not_allowed_token_type");
    }
  });

  it("lets a bot token with users:write set its bot user's presence, as docs.slack.dev allows", async () => {
    const { web } = await slackSandbox(acmeSeed());
    expect(await slackErrorOf(web.users.setPresence({ presence: "away" }))).toBe("missing_scope");
    const withWrite = acmeSeed({ installation: { app_id: "A0DEPLOY", bot_user_id: "U0BOT", scope: `${ACME_SCOPES},users:write` } });
    const { sandbox, web: bot } = await slackSandbox(withWrite);
    expect((await bot.users.setPresence({ presence: "away" })).ok).toBe(true);
    const users = (await stateOf(sandbox)).users as { id: string; presence?: string }[];
    expect(users.find((u) => u.id === "U0BOT")?.presence).toBe("away");
  });
});

describe("slack deleted files keep a tombstone", () => {
  it("answers file_deleted for a deleted file, file_not_found for one that never was, and exports the tombstone", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    const up = await web.filesUploadV2({ channel_id: "C0INCIDENT", filename: "notes.txt", content: "draft" });
    const fileId = (up as unknown as { files: { files: { id: string }[] }[] }).files[0]?.files[0]?.id ?? "";
    await web.files.delete({ file: fileId });
    expect(await slackErrorOf(web.files.info({ file: fileId }))).toBe("file_deleted");
    expect(await slackErrorOf(web.files.delete({ file: fileId }))).toBe("file_deleted");
    expect(await slackErrorOf(web.files.info({ file: "F0NEVER" }))).toBe("file_not_found");
    const state = await stateOf(sandbox);
    expect((state.deleted_files as { id: string }[]).map((f) => f.id)).toEqual([fileId]);
    expect((state.files as { id: string }[]).map((f) => f.id)).not.toContain(fileId);
  });

  it("boots a seeded tombstone", async () => {
    const { web } = await slackSandbox(acmeSeed({ deleted_files: [{ id: "F0GONE", date_deleted: 1700000500 }] }));
    expect(await slackErrorOf(web.files.info({ file: "F0GONE" }))).toBe("file_deleted");
  });
});
