// MCP tools: one typed tool per Slack method, named after it (`chat_postMessage`), taking the
// method's own argument names, and sent as the same JSON POST to /api/<method> a client would
// make, so it runs through the same dispatch and lands on the same tape (transport `mcp`).
import { z } from "zod";
import { seg, tool } from "../kit/tools";
import type { TwinTool } from "../types";

const channel = z.string().min(1).describe("A conversation id (C…, G…, D…)");
const postChannel = z
  .string()
  .min(1)
  .describe("A conversation id, a channel name (#general or general), or a user id for the bot's DM with them");
const ts = z.string().min(1).describe("A message ts, e.g. 1700000000.000100");
const user = z.string().min(1).describe("A user id (U…)");
const limit = z.number().int().min(1).max(1000).optional().describe("Page size");
const cursor = z.string().optional().describe("response_metadata.next_cursor of the previous page");
const text = z.string().describe("Message text (Slack mrkdwn)");
const blocks = z.array(z.record(z.string(), z.unknown())).optional().describe("Block Kit blocks");
const attachments = z.array(z.record(z.string(), z.unknown())).optional().describe("Legacy attachments");
const types = z.string().optional().describe("Comma list of public_channel, private_channel, mpim, im (default public_channel)");
const emoji = z.string().min(1).describe("Emoji name without colons, e.g. white_check_mark");
const usergroup = z.string().min(1).describe("A user group id (S…)");
const reminder = z.string().min(1).describe("A reminder id (Rm…)");

function slackTool(
  name: string,
  description: string,
  input: z.ZodRawShape,
  opts: { readOnly?: boolean; destructive?: boolean } = {},
): TwinTool {
  return tool({
    name: name.replace(/\./g, "_"),
    description,
    input,
    readOnly: opts.readOnly ?? false,
    destructive: opts.destructive ?? false,
    toRequest: (args) => ({ method: "POST", path: `/api/${name}`, body: args }),
  });
}

const read = { readOnly: true };
const destroy = { destructive: true };

export const slackTools: readonly TwinTool[] = [
  slackTool("auth.test", "Who the token acts as: team, bot user id and bot id.", {}, read),
  slackTool("team.info", "The workspace: id, name, domain.", {}, read),
  slackTool("users.list", "Workspace members, a page at a time.", { limit, cursor }, read),
  slackTool("users.info", "One user by id.", { user }, read),
  slackTool("users.lookupByEmail", "A user by email address (users_not_found when none).", { email: z.string().min(3) }, read),
  slackTool(
    "users.conversations",
    "Conversations a user (default: the bot) is a member of.",
    { user: user.optional(), types, exclude_archived: z.boolean().optional(), limit, cursor },
    read,
  ),
  slackTool("users.profile.get", "A user's profile (default: the bot's).", { user: user.optional() }, read),
  slackTool("users.getPresence", "Whether a user is active or away.", { user }, read),
  slackTool(
    "conversations.list",
    "Conversations the bot can see: every public channel, and private ones and DMs it is in.",
    { types, exclude_archived: z.boolean().optional(), limit, cursor },
    read,
  ),
  slackTool(
    "conversations.info",
    "One conversation: name, topic, purpose, membership.",
    { channel, include_num_members: z.boolean().optional() },
    read,
  ),
  slackTool(
    "conversations.history",
    "A channel's messages, newest first; thread replies are left out unless broadcast (read them with conversations_replies). The bot must be a member.",
    { channel, limit, cursor, oldest: ts.optional(), latest: ts.optional(), inclusive: z.boolean().optional() },
    read,
  ),
  slackTool(
    "conversations.replies",
    "A thread: its parent message first, then the replies oldest first. The bot must be a member.",
    { channel, ts, limit, cursor },
    read,
  ),
  slackTool("conversations.members", "Who is in a conversation.", { channel, limit, cursor }, read),
  slackTool("conversations.create", "Creates a channel; the bot becomes its creator and first member.", {
    name: z.string().min(1).describe("Lowercase letters, digits, - and _"),
    is_private: z.boolean().optional(),
  }),
  slackTool("conversations.join", "Joins a public channel.", { channel }),
  slackTool("conversations.invite", "Invites users to a channel the bot is in.", {
    channel,
    users: z.string().min(1).describe("Comma list of user ids"),
  }),
  slackTool("conversations.kick", "Removes a user from a channel the bot is in.", { channel, user }, destroy),
  slackTool("conversations.leave", "The bot leaves a channel.", { channel }, destroy),
  slackTool("conversations.archive", "Archives a channel the bot is in.", { channel }, destroy),
  slackTool("conversations.unarchive", "Unarchives a channel.", { channel }),
  slackTool("conversations.rename", "Renames a channel the bot is in.", { channel, name: z.string().min(1) }),
  slackTool("conversations.setTopic", "Sets a channel's topic; answers the channel.", { channel, topic: z.string() }),
  slackTool("conversations.setPurpose", "Sets a channel's purpose; answers the channel.", { channel, purpose: z.string() }),
  slackTool("conversations.open", "Opens (or finds) the direct message with one user, or the group DM with several.", {
    users: z.string().min(1).describe("One user id, or a comma list of up to 8 for a group DM"),
    return_im: z.boolean().optional(),
  }),
  slackTool("conversations.close", "Closes a direct message or group DM.", { channel }),
  slackTool("conversations.mark", "Moves the bot's read cursor in a conversation.", { channel, ts }),
  slackTool(
    "chat.postMessage",
    "Posts a message; with thread_ts it replies in that thread (reply_broadcast also shows it in the channel).",
    {
      channel: postChannel,
      text: text.optional(),
      blocks,
      attachments,
      thread_ts: ts.optional(),
      reply_broadcast: z.boolean().optional(),
    },
  ),
  slackTool("chat.update", "Edits one of the bot's messages.", { channel, ts, text: text.optional(), blocks, attachments }),
  slackTool("chat.delete", "Deletes one of the bot's messages.", { channel, ts }, destroy),
  slackTool("chat.postEphemeral", "Shows a message to one member of a channel only; nothing is stored.", {
    channel: postChannel,
    user,
    text: text.optional(),
    blocks,
    attachments,
    thread_ts: ts.optional(),
  }),
  slackTool("chat.getPermalink", "A message's permalink.", { channel, message_ts: ts }, read),
  slackTool("chat.meMessage", "Posts a /me message.", { channel: postChannel, text }),
  slackTool("chat.scheduleMessage", "Schedules a message for post_at (Unix seconds, at most 120 days ahead).", {
    channel: postChannel,
    text,
    post_at: z.number().int(),
    thread_ts: ts.optional(),
  }),
  slackTool("chat.deleteScheduledMessage", "Cancels a scheduled message.", { channel, scheduled_message_id: z.string().min(1) }, destroy),
  slackTool("chat.scheduledMessages.list", "Messages scheduled and not yet posted.", { channel: channel.optional(), limit, cursor }, read),
  slackTool("reactions.add", "Adds the bot's emoji reaction to a message.", { channel, timestamp: ts, name: emoji }),
  slackTool("reactions.remove", "Removes the bot's emoji reaction from a message.", { channel, timestamp: ts, name: emoji }, destroy),
  slackTool("reactions.get", "A message with its reactions.", { channel, timestamp: ts }, read),
  slackTool("reactions.list", "Messages a user (default: the bot) reacted to.", { user: user.optional(), limit, cursor }, read),
  slackTool("pins.add", "Pins a message in a channel the bot is in.", { channel, timestamp: ts }),
  slackTool("pins.remove", "Unpins a message.", { channel, timestamp: ts }, destroy),
  slackTool("pins.list", "A channel's pinned messages.", { channel }, read),
  slackTool("bookmarks.add", "Adds a link bookmark to a channel the bot is in.", {
    channel_id: channel,
    title: z.string().min(1),
    type: z.literal("link"),
    link: z.string().url(),
    emoji: z.string().optional(),
  }),
  slackTool("bookmarks.list", "A channel's bookmarks.", { channel_id: channel }, read),
  slackTool("bookmarks.edit", "Edits a bookmark's title, link or emoji.", {
    channel_id: channel,
    bookmark_id: z.string().min(1),
    title: z.string().optional(),
    link: z.string().optional(),
    emoji: z.string().optional(),
  }),
  slackTool("bookmarks.remove", "Removes a bookmark.", { channel_id: channel, bookmark_id: z.string().min(1) }, destroy),
  slackTool(
    "files.getUploadURLExternal",
    "Step 1 of an upload: reserves a file id and its upload URL. Then send the content with files_upload_content and finish with files_completeUploadExternal.",
    {
      filename: z.string().min(1),
      length: z.number().int().min(0).describe("Size of the content in bytes"),
    },
  ),
  tool({
    name: "files_upload_content",
    description: "Step 2 of an upload: the file's text content, for a file id from files_getUploadURLExternal.",
    input: { file_id: z.string().min(1), content: z.string() },
    toRequest: ({ file_id, content }) => ({ method: "POST", path: `/upload/v1/${seg(file_id)}`, body: { content } }),
  }),
  slackTool("files.completeUploadExternal", "Step 3 of an upload: finishes it, sharing the files to a channel with an optional comment.", {
    files: z.array(z.strictObject({ id: z.string().min(1), title: z.string().optional() })).min(1),
    channel_id: postChannel.optional(),
    initial_comment: z.string().optional(),
    thread_ts: ts.optional(),
  }),
  slackTool("files.info", "One file's metadata.", { file: z.string().min(1) }, read),
  slackTool(
    "files.list",
    "Files, newest first.",
    {
      channel: channel.optional(),
      user: user.optional(),
      count: z.number().int().min(1).max(1000).optional(),
      page: z.number().int().min(1).optional(),
    },
    read,
  ),
  slackTool("files.delete", "Deletes one of the bot's files.", { file: z.string().min(1) }, destroy),
  tool({
    name: "files_download",
    description: "A file's text content (what its url_private serves).",
    input: { file: z.string().min(1) },
    readOnly: true,
    toRequest: ({ file }) => ({ method: "GET", path: `/files-pri/${seg(file)}/content` }),
  }),
  slackTool(
    "search.messages",
    "Searches messages (needs a user token; the bot token is refused with not_allowed_token_type, as on Slack). Supports in:#channel and from:@user.",
    {
      query: z.string().min(1),
      count: z.number().int().min(1).max(100).optional(),
      page: z.number().int().min(1).optional(),
      sort_dir: z.enum(["asc", "desc"]).optional(),
    },
    read,
  ),
  slackTool(
    "usergroups.list",
    "The workspace's user groups (disabled ones too with include_disabled).",
    { include_users: z.boolean().optional(), include_count: z.boolean().optional(), include_disabled: z.boolean().optional() },
    read,
  ),
  slackTool("usergroups.create", "Creates a user group; name and handle must be unused.", {
    name: z.string().min(1),
    handle: z.string().min(1).optional(),
    description: z.string().optional(),
    channels: z.string().optional().describe("Comma list of default channel ids"),
  }),
  slackTool("usergroups.update", "Renames or redescribes a user group.", {
    usergroup,
    name: z.string().min(1).optional(),
    handle: z.string().min(1).optional(),
    description: z.string().optional(),
    channels: z.string().optional().describe("Comma list of default channel ids"),
  }),
  slackTool("usergroups.disable", "Disables a user group.", { usergroup }, destroy),
  slackTool("usergroups.enable", "Enables a disabled user group.", { usergroup }),
  slackTool("usergroups.users.list", "The members of a user group.", { usergroup, include_disabled: z.boolean().optional() }, read),
  slackTool("usergroups.users.update", "Replaces the members of a user group with exactly these users (send everyone who should stay).", {
    usergroup,
    users: z.string().min(1).describe("Comma list of user ids: the group's whole new member list"),
  }),
  slackTool(
    "users.profile.set",
    "Sets the caller's own profile fields (status_text, status_emoji as :name:, status_expiration, title, display_name, real_name). User token only.",
    { profile: z.record(z.string(), z.unknown()).optional(), name: z.string().optional(), value: z.string().optional() },
  ),
  slackTool("users.setPresence", "Sets the caller's presence: auto or away. User token only.", { presence: z.enum(["auto", "away"]) }),
  slackTool("dnd.info", "A user's do-not-disturb status (default: the caller's).", { user: user.optional() }, read),
  slackTool("dnd.setSnooze", "Snoozes the caller's notifications for num_minutes. User token only.", {
    num_minutes: z.number().int().min(1),
  }),
  slackTool("dnd.endSnooze", "Ends the caller's snooze. User token only.", {}),
  slackTool("reminders.add", "Creates a reminder for the caller. User token only.", {
    text: z.string().min(1),
    time: z.string().min(1).describe('Unix time, seconds from now (within 24 hours), or "in N minutes|hours|days"'),
  }),
  slackTool("reminders.list", "The caller's reminders. User token only.", {}, read),
  slackTool("reminders.info", "One reminder. User token only.", { reminder }, read),
  slackTool("reminders.complete", "Marks a reminder complete. User token only.", { reminder }),
  slackTool("reminders.delete", "Deletes a reminder. User token only.", { reminder }, destroy),
  slackTool("emoji.list", "The workspace's custom emoji: each name's image URL or alias:<name>.", {}, read),
];
