// The Slack twin's seed: Slack's own object and field names (conversation, message, user, file,
// usergroup; the installation mirrors oauth.v2.access), strict, referentially checked, and
// normalized so that exporting a booted seed gives the seed back with its defaults filled in.
import { z } from "zod";
import { parseSeedWith, SeedProblems } from "../kit/seed";
import { STANDARD_EMOJI_NAMES } from "./data/standard-emoji";
import {
  type SlackLinkShare,
  type SlackRateLimits,
  type SlackStar,
  type SlackTriggerId,
  type SlackView,
  linkShareSeed,
  rateLimitsSeed,
  starKey,
  starSeed,
  triggerIdSeed,
  viewSeed,
} from "./seed-surfaces";

/** The scopes an installation has when its seed names none: every bot scope the twin's methods need, minus the two that widen posting. */
export const DEFAULT_BOT_SCOPES = [
  "chat:write",
  "channels:read",
  "channels:history",
  "channels:join",
  "channels:manage",
  "groups:read",
  "groups:history",
  "groups:write",
  "im:read",
  "im:history",
  "im:write",
  "mpim:read",
  "mpim:write",
  "reactions:read",
  "reactions:write",
  "pins:read",
  "pins:write",
  "bookmarks:read",
  "bookmarks:write",
  "users:read",
  "users:read.email",
  "users.profile:read",
  "team:read",
  "files:read",
  "files:write",
  "usergroups:read",
  "usergroups:write",
  "dnd:read",
  "emoji:read",
].join(",");

/** The bot a seed without one gets, so the sandbox's credential always acts as somebody. */
export const DEFAULT_BOT = { id: "U0POMEBOT", bot_id: "B0POMEBOT", name: "pome" };

/** Subtypes a seeded message may carry: the ones the twin itself writes. */
export const MESSAGE_SUBTYPES = [
  "thread_broadcast",
  "me_message",
  "channel_join",
  "channel_leave",
  "channel_topic",
  "channel_purpose",
  "channel_name",
  "channel_archive",
] as const;

const id = (prefix: string, what: string) =>
  z.string().regex(new RegExp(`^${prefix}[A-Z0-9]{2,}$`), `Invalid ${what} id: ${prefix} followed by capital letters or digits`);
const userId = id("[UW]", "user");
/** An emoji name as Slack spells them: lower case, digits, `_`, `+`, `'`, `-`. */
export const EMOJI_NAME = /^[a-z0-9_+'-]+$/;

const TS = /^\d{10}\.\d{6}$/;
const ts = z.string().regex(TS, "Invalid ts: ten digits, a dot, six digits");
/** A field the twin derives; a seed that sets it could disagree with itself. */
const derived = z.undefined({ error: "Derived by the twin from the rest of the seed; leave it out" }).optional();

const textField = z.strictObject({
  value: z.string().default(""),
  creator: z.string().default(""),
  last_set: z.number().int().nonnegative().default(0),
});

const user = z.strictObject({
  id: userId,
  name: z.string().min(1),
  real_name: z.string().optional(),
  is_bot: z.boolean().default(false),
  is_admin: z.boolean().default(false),
  deleted: z.boolean().default(false),
  tz: z.string().optional(),
  presence: z.enum(["active", "away"]).default("active"),
  profile: z
    .strictObject({
      email: z.string().optional(),
      title: z.string().optional(),
      real_name: z.string().optional(),
      display_name: z.string().optional(),
      bot_id: id("B", "bot").optional(),
      // The user's status, as users.profile.set writes it.
      status_text: z.string().max(100).optional(),
      status_emoji: z.string().optional(),
      status_expiration: z.number().int().nonnegative().optional(),
    })
    .default({}),
  /** Do-not-disturb, as dnd.info answers it; absent means off. */
  dnd: z
    .strictObject({
      dnd_enabled: z.boolean().default(false),
      next_dnd_start_ts: z.number().int().nonnegative().default(0),
      next_dnd_end_ts: z.number().int().nonnegative().default(0),
      snooze_enabled: z.boolean().default(false),
      snooze_endtime: z.number().int().nonnegative().optional(),
    })
    .optional(),
});

const reaction = z.strictObject({
  name: z.string().regex(EMOJI_NAME, "Invalid emoji name"),
  users: z.array(z.string()).min(1),
  count: derived,
});

const message = z.strictObject({
  ts,
  user: z.string(),
  text: z.string().optional(),
  blocks: z.array(z.record(z.string(), z.unknown())).optional(),
  attachments: z.array(z.record(z.string(), z.unknown())).optional(),
  files: z.array(z.string()).optional(),
  thread_ts: ts.optional(),
  subtype: z.enum(MESSAGE_SUBTYPES).optional(),
  bot_id: z.string().optional(),
  edited: z.strictObject({ user: z.string(), ts }).optional(),
  reactions: z.array(reaction).optional(),
  reply_count: derived,
  reply_users: derived,
  reply_users_count: derived,
  latest_reply: derived,
});

const bookmark = z.strictObject({
  id: z.string().regex(/^Bk[A-Z0-9]{2,}$/, "Invalid bookmark id: Bk followed by capital letters or digits"),
  title: z.string().min(1),
  link: z.string().min(1),
  emoji: z.string().optional(),
});

const channel = z.strictObject({
  id: z.string().regex(/^[CGD][A-Z0-9]{2,}$/, "Invalid conversation id: C, G or D followed by capital letters or digits"),
  name: z
    .string()
    .regex(/^[a-z0-9_-]{1,80}$/, "Invalid channel name: 1 to 80 of a-z, 0-9, - and _")
    .optional(),
  is_private: z.boolean().default(false),
  is_archived: z.boolean().default(false),
  is_general: z.boolean().default(false),
  is_im: z.boolean().default(false),
  /** A multi-person DM (conversations.open with several users); private by nature. */
  is_mpim: z.boolean().optional(),
  user: z.string().optional(),
  created: z.number().int().nonnegative().optional(),
  creator: z.string().optional(),
  topic: textField.default({ value: "", creator: "", last_set: 0 }),
  purpose: textField.default({ value: "", creator: "", last_set: 0 }),
  members: z.array(z.string()).default([]),
  pins: z.array(ts).default([]),
  bookmarks: z.array(bookmark).default([]),
  messages: z.array(message).default([]),
  /** Its channel canvas (conversations.canvases.create): a seeded file of filetype "quip". */
  canvas: id("F", "file").optional(),
  num_members: derived,
  is_member: derived,
});

const file = z.strictObject({
  id: id("F", "file"),
  name: z.string().min(1),
  title: z.string().optional(),
  filetype: z.string().optional(),
  user: z.string(),
  created: z.number().int().nonnegative().optional(),
  content: z.string().optional(),
  content_base64: z.string().optional(),
  /** Whether files.sharedPublicURL made it public (files.revokePublicURL takes it back). */
  public_url_shared: z.boolean().optional(),
  size: derived,
  mimetype: derived,
  channels: derived,
  shares: derived,
});

/** A deleted file's tombstone: files.info answers `file_deleted` for it rather than `file_not_found`. */
const deletedFile = z.strictObject({ id: id("F", "file"), date_deleted: z.number().int().nonnegative().default(0) });

const scheduled = z.strictObject({
  id: id("Q", "scheduled message"),
  channel_id: z.string(),
  post_at: z.number().int().positive(),
  text: z.string(),
  thread_ts: ts.optional(),
  user: z.string().optional(),
});

const usergroup = z.strictObject({
  id: id("S", "usergroup"),
  handle: z.string().min(1),
  name: z.string().min(1),
  description: z.string().default(""),
  users: z.array(z.string()).default([]),
  /** Default channels of the group (`prefs.channels`). */
  channels: z.array(z.string()).default([]),
  /** When the group was disabled (usergroups.disable); 0 while it is enabled, as Slack's `date_delete`. */
  date_delete: z.number().int().nonnegative().default(0),
  date_create: z.number().int().nonnegative().default(1700000000),
  created_by: z.string().optional(),
});

/** A reminder (reminders.add), as reminders.info answers it; `complete_ts` 0 while pending. */
const reminder = z.strictObject({
  id: z.string().regex(/^Rm[A-Z0-9]{2,}$/, "Invalid reminder id: Rm followed by capital letters or digits"),
  creator: z.string(),
  user: z.string(),
  text: z.string().min(1),
  time: z.number().int().nonnegative(),
  recurring: z.boolean().default(false),
  complete_ts: z.number().int().nonnegative().default(0),
});

/**
 * The workspace's custom emoji, as emoji.list answers them: a name to its image URL, or to
 * `alias:<name>` for another name of an emoji (standard or custom).
 */
const customEmoji = z.record(z.string().regex(EMOJI_NAME, "Invalid emoji name"), z.string().min(1)).default({});

const after = z.union([z.strictObject({ calls: z.number().int().min(1) }), z.strictObject({ seconds: z.number().positive() })]);

const scriptedReply = z.strictObject({
  channel: z.string(),
  thread_ts: ts.optional(),
  match: z.string().min(1),
  user: z.string(),
  text: z.string().min(1),
  reply_in: z.enum(["thread", "channel"]).default("thread"),
  after,
});

const installation = z.strictObject({
  app_id: id("A", "app").default("A0POMEAPP"),
  bot_user_id: userId.optional(),
  scope: z.string().default(DEFAULT_BOT_SCOPES),
  authed_user: z.strictObject({ id: userId, scope: z.string().default("") }).optional(),
});

const rawSeed = z.strictObject({
  team: z
    .strictObject({ id: id("T", "team"), name: z.string().min(1), domain: z.string().regex(/^[a-z0-9-]+$/, "Invalid domain") })
    .default({ id: "T0POME", name: "Pome", domain: "pome" }),
  installation: installation.optional(),
  users: z.array(user).default([]),
  channels: z.array(channel).default([]),
  files: z.array(file).default([]),
  scheduled_messages: z.array(scheduled).default([]),
  usergroups: z.array(usergroup).default([]),
  scripted_replies: z.array(scriptedReply).default([]),
  emoji: customEmoji,
  deleted_files: z.array(deletedFile).default([]),
  reminders: z.array(reminder).default([]),
  trigger_ids: z.array(triggerIdSeed).default([]),
  views: z.array(viewSeed).default([]),
  link_shares: z.array(linkShareSeed).default([]),
  stars: z.array(starSeed).default([]),
  rate_limits: rateLimitsSeed.optional(),
});

type Raw = z.infer<typeof rawSeed>;
export type SlackUser = Raw["users"][number];
export type SlackChannel = Omit<Raw["channels"][number], "num_members" | "is_member" | "messages"> & { messages: SlackMessage[] };
export type SlackMessage = Omit<
  Raw["channels"][number]["messages"][number],
  "reply_count" | "reply_users" | "reply_users_count" | "latest_reply" | "reactions"
> & {
  reactions?: { name: string; users: string[] }[];
};
export type SlackFile = Omit<Raw["files"][number], "size" | "mimetype" | "channels" | "shares">;
export type SlackScheduled = Raw["scheduled_messages"][number];
export type SlackUsergroup = Raw["usergroups"][number];
export type ScriptedReply = Raw["scripted_replies"][number];
export type SlackDeletedFile = Raw["deleted_files"][number];
export type SlackReminder = Raw["reminders"][number];
export interface SlackInstallation {
  app_id: string;
  bot_user_id: string;
  scope: string;
  authed_user?: { id: string; scope: string };
}
export interface SlackSeed {
  team: Raw["team"];
  installation: SlackInstallation;
  users: SlackUser[];
  channels: SlackChannel[];
  files: SlackFile[];
  scheduled_messages: SlackScheduled[];
  usergroups: SlackUsergroup[];
  scripted_replies: ScriptedReply[];
  emoji: Record<string, string>;
  deleted_files: SlackDeletedFile[];
  reminders: SlackReminder[];
  trigger_ids: SlackTriggerId[];
  views: SlackView[];
  link_shares: SlackLinkShare[];
  stars: SlackStar[];
  rate_limits?: SlackRateLimits;
}

const FILETYPES: Record<string, string> = {
  md: "markdown",
  txt: "text",
  json: "json",
  csv: "csv",
  png: "png",
  jpg: "jpg",
  jpeg: "jpg",
  gif: "gif",
  pdf: "pdf",
  html: "html",
  js: "javascript",
  ts: "typescript",
  py: "python",
  yaml: "yaml",
  yml: "yaml",
  log: "text",
};

/** Slack's `filetype` for a file name: its extension's, else `text`. */
export function filetypeOf(name: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return (ext && FILETYPES[ext]) ?? "text";
}

function stripMessage(m: Raw["channels"][number]["messages"][number]): SlackMessage {
  const { reply_count: _a, reply_users: _b, reply_users_count: _c, latest_reply: _d, reactions, ...rest } = m;
  const out: SlackMessage = { ...rest, text: rest.text ?? "" };
  if (reactions?.length) out.reactions = reactions.map((r) => ({ name: r.name, users: r.users }));
  return out;
}

/**
 * The user the installation's bot token acts as: the seed's `bot_user_id`, else its one bot user,
 * else the default bot, added to `users`. Several bots and no `bot_user_id` is a problem.
 */
function installationBot(raw: Raw, users: SlackUser[], problems: SeedProblems): string | undefined {
  const given = raw.installation?.bot_user_id;
  if (given) return given;
  const bots = users.filter((u) => u.is_bot);
  if (bots.length === 1) return bots[0].id;
  if (bots.length > 1) {
    problems.add("installation.bot_user_id", "The seed has several bot users: name the installation's bot_user_id", "invalid_seed");
    return undefined;
  }
  users.push({
    id: DEFAULT_BOT.id,
    name: DEFAULT_BOT.name,
    is_bot: true,
    is_admin: false,
    deleted: false,
    presence: "active",
    profile: { bot_id: DEFAULT_BOT.bot_id, real_name: "Pome" },
  });
  return DEFAULT_BOT.id;
}

/** What normalizing a Slack seed has found so far: the problems, and the ids references name. */
interface Normalizing {
  problems: SeedProblems;
  userById: Map<string, SlackUser>;
  botUserId: string | undefined;
  fileIds: Set<string>;
  channelIds: Set<string>;
  channelNames: Set<string>;
  /** General channels seen so far: at most one. */
  generals: number;
  /** A reference to a user by id; an unknown one is a problem at `path`. */
  knownUser(value: string | undefined, path: string): void;
}

function checkUsers(users: SlackUser[], problems: SeedProblems): Map<string, SlackUser> {
  const userById = new Map<string, SlackUser>();
  const userNames = new Set<string>();
  users.forEach((u, i) => {
    if (userById.has(u.id)) problems.add(`users[${i}].id`, `Duplicate user id ${u.id}`, "duplicate");
    problems.unique(userNames, u.name, `users[${i}].name`, `Duplicate user name ${u.name}`);
    userById.set(u.id, u);
    if (u.profile.bot_id && !u.is_bot) problems.add(`users[${i}].profile.bot_id`, "Only an is_bot user has a bot_id");
  });
  return userById;
}

function checkInstallation(n: Normalizing, raw: Raw): void {
  const { problems, botUserId } = n;
  const bot = botUserId ? n.userById.get(botUserId) : undefined;
  if (botUserId && !bot) problems.add("installation.bot_user_id", `No seeded user has id ${botUserId}`);
  else if (bot && (!bot.is_bot || !bot.profile.bot_id))
    problems.add("installation.bot_user_id", `User ${bot.id} must be is_bot with a profile.bot_id`);
  if (raw.installation?.authed_user) n.knownUser(raw.installation.authed_user.id, "installation.authed_user.id");
}

function checkFiles(n: Normalizing, files: Raw["files"]): void {
  files.forEach((f, i) => {
    n.problems.unique(n.fileIds, f.id, `files[${i}].id`, `Duplicate file id ${f.id}`);
    n.knownUser(f.user, `files[${i}].user`);
    if (f.content !== undefined && f.content_base64 !== undefined)
      n.problems.add(`files[${i}].content_base64`, "Give content or content_base64, not both");
  });
}

type RawChannel = Raw["channels"][number];
type RawMessage = RawChannel["messages"][number];

/** A conversation's kind (DM, group DM, channel, the general channel) agrees with its id, name and user. */
function checkConversationKind(n: Normalizing, c: RawChannel, at: string): void {
  const { problems } = n;
  if (c.is_mpim && (c.is_im || c.is_private || c.is_general))
    problems.add(`${at}.is_mpim`, "A group DM is neither a DM, a private channel nor the general channel");
  if (c.is_im) {
    if (!c.id.startsWith("D")) problems.add(`${at}.id`, "A direct message's id starts with D");
    if (c.user === undefined) problems.add(`${at}.user`, "A direct message names its user");
    if (c.name !== undefined) problems.add(`${at}.name`, "A direct message has no name");
  } else {
    if (c.id.startsWith("D")) problems.add(`${at}.id`, "Only a direct message's id starts with D");
    if (c.name === undefined) problems.add(`${at}.name`, "A channel needs a name");
    else if (n.channelNames.has(c.name)) problems.add(`${at}.name`, `Duplicate channel name ${c.name}`, "duplicate");
    else n.channelNames.add(c.name);
    if (c.user !== undefined) problems.add(`${at}.user`, "Only a direct message names a user");
  }
  n.knownUser(c.user, `${at}.user`);
  n.knownUser(c.creator, `${at}.creator`);
  if (c.is_general) {
    n.generals += 1;
    if (n.generals > 1) problems.add(`${at}.is_general`, "At most one channel is the general channel");
    if (c.is_private || c.is_archived || c.is_im) problems.add(`${at}.is_general`, "The general channel is public and not archived");
  }
}

/** Each message once per ts, by a known user, with content; its files, bot and reactions known. */
function checkMessages(n: Normalizing, c: RawChannel, at: string): Map<string, RawMessage> {
  const { problems } = n;
  const byTs = new Map<string, RawMessage>();
  c.messages.forEach((m, mi) => {
    const mat = `${at}.messages[${mi}]`;
    if (byTs.has(m.ts)) problems.add(`${mat}.ts`, `Duplicate ts ${m.ts} in this channel`, "duplicate");
    byTs.set(m.ts, m);
    n.knownUser(m.user, `${mat}.user`);
    if (m.text === undefined && !m.blocks && !m.attachments && !m.files)
      problems.add(mat, "A message needs text, blocks, attachments or files", "invalid_seed");
    m.files?.forEach((f, fi) => {
      if (!n.fileIds.has(f)) problems.add(`${mat}.files[${fi}]`, `No seeded file has id ${f}`);
    });
    if (m.bot_id !== undefined && n.userById.get(m.user)?.profile.bot_id !== m.bot_id)
      problems.add(`${mat}.bot_id`, "bot_id must be its user's profile.bot_id");
    if (m.edited) n.knownUser(m.edited.user, `${mat}.edited.user`);
    m.reactions?.forEach((r, ri) => r.users.forEach((u, ui) => n.knownUser(u, `${mat}.reactions[${ri}].users[${ui}]`)));
  });
  return byTs;
}

/** A reply's thread is an earlier top-level message of its channel; only a reply is broadcast. */
function checkThreads(n: Normalizing, c: RawChannel, at: string, byTs: Map<string, RawMessage>): void {
  c.messages.forEach((m, mi) => {
    const mat = `${at}.messages[${mi}]`;
    if (m.thread_ts !== undefined && m.thread_ts !== m.ts) {
      const parent = byTs.get(m.thread_ts);
      if (!parent || (parent.thread_ts !== undefined && parent.thread_ts !== parent.ts) || parent.ts >= m.ts) {
        n.problems.add(`${mat}.thread_ts`, "thread_ts must name an earlier top-level message of this channel");
      }
    }
    const isReply = m.thread_ts !== undefined && m.thread_ts !== m.ts;
    if (m.subtype === "thread_broadcast" && !isReply) n.problems.add(`${mat}.subtype`, "thread_broadcast is only for a thread reply");
  });
}

function normalizeChannel(n: Normalizing, c: RawChannel, ci: number): SlackChannel {
  const at = `channels[${ci}]`;
  n.problems.unique(n.channelIds, c.id, `${at}.id`, `Duplicate conversation id ${c.id}`);
  checkConversationKind(n, c, at);
  const { botUserId } = n;
  const members = c.is_im && c.user !== undefined && botUserId ? [...new Set([...c.members, c.user, botUserId])] : c.members;
  c.members.forEach((m, mi) => n.knownUser(m, `${at}.members[${mi}]`));
  const byTs = checkMessages(n, c, at);
  checkThreads(n, c, at, byTs);
  c.pins.forEach((p, pi) => {
    if (!byTs.has(p)) n.problems.add(`${at}.pins[${pi}]`, `No message of this channel has ts ${p}`);
  });
  const messages = [...c.messages].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0)).map(stripMessage);
  const { num_members: _n, is_member: _m, ...rest } = c;
  return { ...rest, members, messages };
}

/** Bookmarks, scheduled messages and usergroups: each id once, their users and conversations seeded. */
function checkChannelExtras(n: Normalizing, raw: Raw): void {
  const { problems } = n;
  const canvases = new Map(raw.files.map((f) => [f.id, f.filetype]));
  raw.channels.forEach((c, ci) => {
    if (c.canvas === undefined) return;
    if (!canvases.has(c.canvas)) problems.add(`channels[${ci}].canvas`, `No seeded file has id ${c.canvas}`);
    else if (canvases.get(c.canvas) !== "quip") problems.add(`channels[${ci}].canvas`, `File ${c.canvas} is not a canvas (filetype quip)`);
  });
  const bookmarkIds = new Set<string>();
  raw.channels.forEach((c, ci) =>
    c.bookmarks.forEach((b, bi) =>
      problems.unique(bookmarkIds, b.id, `channels[${ci}].bookmarks[${bi}].id`, `Duplicate bookmark id ${b.id}`),
    ),
  );
  const scheduledIds = new Set<string>();
  raw.scheduled_messages.forEach((s, i) => {
    problems.unique(scheduledIds, s.id, `scheduled_messages[${i}].id`, `Duplicate scheduled message id ${s.id}`);
    if (!n.channelIds.has(s.channel_id))
      problems.add(`scheduled_messages[${i}].channel_id`, `No seeded conversation has id ${s.channel_id}`);
    n.knownUser(s.user, `scheduled_messages[${i}].user`);
  });
  const groupIds = new Set<string>();
  raw.usergroups.forEach((g, i) => {
    problems.unique(groupIds, g.id, `usergroups[${i}].id`, `Duplicate usergroup id ${g.id}`);
    g.users.forEach((u, ui) => n.knownUser(u, `usergroups[${i}].users[${ui}]`));
    g.channels.forEach((c, ci) => {
      if (!n.channelIds.has(c)) problems.add(`usergroups[${i}].channels[${ci}]`, `No seeded conversation has id ${c}`);
    });
    n.knownUser(g.created_by, `usergroups[${i}].created_by`);
  });
}

/** A scripted reply comes from a member (not the bot) of a seeded conversation, in a top-level thread. */
function checkScriptedReplies(n: Normalizing, replies: Raw["scripted_replies"], channels: SlackChannel[]): void {
  const { problems } = n;
  replies.forEach((r, i) => {
    const at = `scripted_replies[${i}]`;
    const c = channels.find((ch) => ch.id === r.channel);
    if (!c) problems.add(`${at}.channel`, `No seeded conversation has id ${r.channel}`);
    n.knownUser(r.user, `${at}.user`);
    if (r.user === n.botUserId) problems.add(`${at}.user`, "A scripted reply comes from a person, not the bot");
    else if (c && !c.members.includes(r.user)) problems.add(`${at}.user`, `User ${r.user} is not a member of ${r.channel}`);
    if (
      r.thread_ts !== undefined &&
      c &&
      !c.messages.some((m) => m.ts === r.thread_ts && (m.thread_ts === undefined || m.thread_ts === m.ts))
    ) {
      problems.add(`${at}.thread_ts`, "thread_ts must name a top-level message of that channel");
    }
  });
}

/**
 * Link shares: a posted one names a seeded message (and its channel), a composer one no message
 * (Slack's composer event carries the pseudo-channel COMPOSER and no real ts).
 */
function checkLinkShares(n: Normalizing, shares: Raw["link_shares"], channels: SlackChannel[]): void {
  const { problems } = n;
  const ids = new Set<string>();
  shares.forEach((s, i) => {
    const at = `link_shares[${i}]`;
    problems.unique(ids, s.unfurl_id, `${at}.unfurl_id`, `Duplicate unfurl id ${s.unfurl_id}`);
    n.knownUser(s.user, `${at}.user`);
    if (s.source === "composer") {
      if (s.channel !== undefined || s.message_ts !== undefined)
        problems.add(at, "A composer share has no channel or message_ts: the message is not posted yet");
      return;
    }
    if (s.unfurls !== undefined)
      problems.add(`${at}.unfurls`, "Only a composer share keeps unfurls: a posted one keeps them on its message");
    const c = channels.find((ch) => ch.id === s.channel);
    if (!c) problems.add(`${at}.channel`, `No seeded conversation has id ${s.channel ?? "(none)"}`);
    else if (!c.messages.some((m) => m.ts === s.message_ts))
      problems.add(`${at}.message_ts`, `No seeded message of ${c.id} has ts ${s.message_ts ?? "(none)"}`);
  });
}

/** Saved items: each names a seeded message, file or conversation, saved once per person. */
function checkStars(n: Normalizing, stars: Raw["stars"], channels: SlackChannel[]): void {
  const { problems } = n;
  const saved = new Set<string>();
  stars.forEach((s, i) => {
    const at = `stars[${i}]`;
    n.knownUser(s.user, `${at}.user`);
    problems.unique(saved, `${s.user} ${starKey(s)}`, at, `${s.user} saved this item twice`);
    if (s.file !== undefined) {
      if (s.channel !== undefined || s.ts !== undefined)
        problems.add(at, "A saved item is a file, or a channel with or without a ts: not both");
      else if (!n.fileIds.has(s.file)) problems.add(`${at}.file`, `No seeded file has id ${s.file}`);
      return;
    }
    const c = channels.find((ch) => ch.id === s.channel);
    if (!c) problems.add(`${at}.channel`, `No seeded conversation has id ${s.channel ?? "(none)"}`);
    else if (s.ts !== undefined && !c.messages.some((m) => m.ts === s.ts))
      problems.add(`${at}.ts`, `No seeded message of ${c.id} has ts ${s.ts}`);
  });
}

/** Custom emoji, reminders and deleted files. */
function checkWorkspaceExtras(n: Normalizing, raw: Raw): void {
  const { problems } = n;
  for (const [name, value] of Object.entries(raw.emoji)) {
    if (STANDARD_EMOJI_NAMES.has(name))
      problems.add(`emoji.${name}`, `${name} is a standard emoji: a custom one needs another name`, "duplicate");
    const alias = /^alias:(.+)$/.exec(value)?.[1];
    if (alias !== undefined && !STANDARD_EMOJI_NAMES.has(alias) && !(alias in raw.emoji))
      problems.add(`emoji.${name}`, `alias:${alias} names no standard or custom emoji`);
  }
  const reminderIds = new Set<string>();
  raw.reminders.forEach((r, i) => {
    problems.unique(reminderIds, r.id, `reminders[${i}].id`, `Duplicate reminder id ${r.id}`);
    n.knownUser(r.creator, `reminders[${i}].creator`);
    n.knownUser(r.user, `reminders[${i}].user`);
  });
  raw.trigger_ids.forEach((t, i) => n.knownUser(t.user, `trigger_ids[${i}].user`));
  raw.views.forEach((v, i) => n.knownUser(v.user, `views[${i}].user`));
  raw.deleted_files.forEach((f, i) => {
    if (n.fileIds.has(f.id)) problems.add(`deleted_files[${i}].id`, `File ${f.id} is both a file and deleted`, "duplicate");
    n.fileIds.add(f.id);
  });
}

function normalize(raw: Raw) {
  const problems = new SeedProblems();
  const users = [...raw.users];
  const botUserId = installationBot(raw, users, problems);
  const userById = checkUsers(users, problems);
  const n: Normalizing = {
    problems,
    userById,
    botUserId,
    fileIds: new Set(),
    channelIds: new Set(),
    channelNames: new Set(),
    generals: 0,
    knownUser: (value, path) => {
      if (value !== undefined && !userById.has(value)) problems.add(path, `No seeded user has id ${value}`);
    },
  };
  checkInstallation(n, raw);
  checkFiles(n, raw.files);
  const channels = raw.channels.map((c, ci) => normalizeChannel(n, c, ci));
  checkChannelExtras(n, raw);
  checkScriptedReplies(n, raw.scripted_replies, channels);
  checkWorkspaceExtras(n, raw);
  checkLinkShares(n, raw.link_shares, channels);
  checkStars(n, raw.stars, channels);
  const installationSeed: SlackInstallation = {
    app_id: raw.installation?.app_id ?? "A0POMEAPP",
    bot_user_id: botUserId ?? DEFAULT_BOT.id,
    scope: raw.installation?.scope ?? DEFAULT_BOT_SCOPES,
  };
  if (raw.installation?.authed_user) installationSeed.authed_user = raw.installation.authed_user;
  const files: SlackFile[] = raw.files.map((f) => ({ ...f, title: f.title ?? f.name, filetype: f.filetype ?? filetypeOf(f.name) }));
  const seed: SlackSeed = {
    team: raw.team,
    installation: installationSeed,
    users,
    channels,
    files,
    scheduled_messages: raw.scheduled_messages,
    usergroups: raw.usergroups,
    scripted_replies: raw.scripted_replies,
    emoji: raw.emoji,
    deleted_files: raw.deleted_files,
    reminders: raw.reminders,
    trigger_ids: raw.trigger_ids,
    views: raw.views,
    link_shares: raw.link_shares,
    stars: raw.stars,
    ...(raw.rate_limits ? { rate_limits: raw.rate_limits } : {}),
  };
  return problems.result(seed);
}

export const parseSlackSeed = parseSeedWith(rawSeed, normalize);

/** The world a sandbox gets without a seed: team Acme, the bot, alice and bob, three channels and a thread. */
export function defaultSlackSeed(): SlackSeed {
  const parsed = parseSlackSeed({
    team: { id: "T0ACME", name: "Acme", domain: "acme" },
    installation: { app_id: "A0DEPLOY", bot_user_id: "U0BOT" },
    users: [
      { id: "U0BOT", name: "deploybot", is_bot: true, profile: { bot_id: "B0BOT", real_name: "Deploy Bot" } },
      {
        id: "U0ALICE",
        name: "alice",
        real_name: "Alice Smith",
        tz: "Europe/London",
        profile: { email: "alice@acme.test", title: "SRE", real_name: "Alice Smith" },
      },
      { id: "U0BOB", name: "bob", real_name: "Bob Jones", profile: { email: "bob@acme.test", real_name: "Bob Jones" } },
    ],
    channels: [
      {
        id: "C0GENERAL",
        name: "general",
        is_general: true,
        created: 1700000000,
        members: ["U0BOT", "U0ALICE", "U0BOB"],
        messages: [
          { ts: "1700000000.000100", user: "U0ALICE", text: "Welcome to Acme!" },
          { ts: "1700000100.000100", user: "U0BOB", text: "Deploy of api v2 is planned for Friday" },
          { ts: "1700000200.000100", user: "U0ALICE", text: "Any blockers?", thread_ts: "1700000100.000100" },
        ],
      },
      {
        id: "C0RANDOM",
        name: "random",
        created: 1700000000,
        members: ["U0ALICE", "U0BOB"],
        messages: [{ ts: "1700000300.000100", user: "U0BOB", text: "Lunch?" }],
      },
      { id: "C0LEADS", name: "leads", is_private: true, created: 1700000000, members: ["U0ALICE"] },
    ],
  });
  if (!parsed.ok) throw new Error(`the default Slack seed is invalid: ${JSON.stringify(parsed.issues)}`);
  return parsed.seed;
}

/**
 * A valid seed with `count` messages in #general (plus users and channels around them), derived
 * deterministically, for the contract's round trip and the bench's 10 vs 10,000 comparison.
 */
export function generateSlackSeed(count: number): SlackSeed {
  const base = defaultSlackSeed();
  const messages: SlackMessage[] = [];
  for (let i = 0; i < count; i++) {
    const seconds = 1600000000 + Math.floor(i / 1000);
    const micros = String((i % 1000) * 100 + 1).padStart(6, "0");
    messages.push({ ts: `${seconds}.${micros}`, user: i % 2 ? "U0ALICE" : "U0BOB", text: `Message ${i + 1}` });
  }
  const general = base.channels[0];
  return { ...base, channels: [{ ...general, messages }, ...base.channels.slice(1)] };
}
