// The example workspace, as a seed: an incident channel with a thread, a broadcast reply,
// a pin, a bookmark and a file, a private channel the bot is not in, a DM, a scheduled message,
// a user group and a scripted teammate.
export const ACME_SCOPES =
  "chat:write,channels:read,channels:history,channels:manage,channels:join,groups:read,reactions:read,reactions:write,pins:read,pins:write,bookmarks:read,bookmarks:write,users:read,users:read.email,users.profile:read,team:read,files:read,files:write,im:read,im:write,im:history,usergroups:read,emoji:read";

export function acmeSeed(overrides: Record<string, unknown> = {}) {
  return {
    team: { id: "T0ACME", name: "Acme", domain: "acme" },
    installation: {
      app_id: "A0DEPLOY",
      bot_user_id: "U0BOT",
      scope: ACME_SCOPES,
      authed_user: { id: "U0ALICE", scope: "search:read" },
    },
    users: [
      { id: "U0BOT", name: "deploybot", is_bot: true, profile: { bot_id: "B0BOT", real_name: "Deploy Bot" } },
      { id: "U0ALICE", name: "alice", real_name: "Alice Smith", tz: "Europe/London", profile: { email: "alice@acme.test", title: "SRE" } },
      { id: "U0BOB", name: "bob", profile: { email: "bob@acme.test" }, presence: "away" },
      { id: "U0CAROL", name: "carol", profile: { email: "carol@acme.test" } },
    ],
    channels: [
      { id: "C0GENERAL", name: "general", is_general: true, created: 1690000000, members: ["U0BOT", "U0ALICE", "U0BOB"] },
      {
        id: "C0INCIDENT",
        name: "incidents",
        created: 1690000000,
        topic: { value: "Sev2+ only" },
        creator: "U0ALICE",
        members: ["U0BOT", "U0ALICE", "U0BOB"],
        pins: ["1700000000.000100"],
        bookmarks: [{ id: "Bk0RUNBOOK", title: "Runbook", link: "https://wiki.acme.test/db" }],
        messages: [
          { ts: "1700000000.000100", user: "U0ALICE", text: "DB latency high", reactions: [{ name: "eyes", users: ["U0BOB"] }] },
          { ts: "1700000000.000200", user: "U0BOB", text: "Looking", thread_ts: "1700000000.000100" },
          { ts: "1700000000.000300", user: "U0BOB", text: "Failing over", thread_ts: "1700000000.000100", subtype: "thread_broadcast" },
          { ts: "1700000000.000400", user: "U0ALICE", text: "Runbook attached", files: ["F0RUNBOOK"] },
        ],
      },
      { id: "C0RANDOM", name: "random", created: 1690000000, members: ["U0ALICE", "U0BOB"], messages: [{ ts: "1700000001.000100", user: "U0BOB", text: "Lunch?" }] },
      { id: "C0LEADS", name: "leads", is_private: true, created: 1690000000, members: ["U0ALICE"] },
      { id: "D0ALICE", is_im: true, user: "U0ALICE", created: 1690000000, messages: [] },
    ],
    files: [{ id: "F0RUNBOOK", name: "runbook.md", title: "DB runbook", user: "U0ALICE", created: 1700000000, content: "# Failover\nPromote the replica." }],
    scheduled_messages: [{ id: "Q0REMIND", channel_id: "C0INCIDENT", post_at: 1900000000, text: "Post-mortem due" }],
    usergroups: [{ id: "S0ONCALL", handle: "oncall", name: "On-call", users: ["U0ALICE", "U0BOB"] }],
    scripted_replies: [
      { channel: "C0INCIDENT", thread_ts: "1700000000.000100", match: "rollback", user: "U0ALICE", text: "Approved, roll back.", reply_in: "thread", after: { calls: 2 } },
    ],
    ...overrides,
  };
}
