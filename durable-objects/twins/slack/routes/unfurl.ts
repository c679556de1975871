// chat.unfurl: an app's preview of links in a message, kept as the message's attachments as
// Slack shows them (each marked `is_app_unfurl` with the URL it previews, replacing an earlier
// preview of the same URL). The message is named by `channel` + `ts` (or `unfurl_id` + `source`
// from a link_shared event, which the twin does not send: such ids are unknown); `unfurls` is a
// JSON object from each URL to a legacy attachment or `{blocks}`. Refusals as Slack words them:
// `cannot_find_message`, `cannot_unfurl_url` for a URL the message does not hold,
// `missing_unfurls`, `invalid_unfurls_format`, `invalid_blocks`.
import { z } from "zod";
import type { Route } from "../../types";
import { attachmentProblems } from "../attachments";
import { blockProblems, invalidBlocksExtra } from "../blocks";
import { type Call, method } from "../context";
import { type Refusal, flag, json, text } from "../declare";
import { fail } from "../errors";
import { directoryOf, richElements } from "../mrkdwn";
import { canSee, channelRow } from "../store/channels";
import { messageRow } from "../store/messages";
import { type MessageRow, messageData } from "../store/rows";

type Json = Record<string, unknown>;

const BAD_UNFURLS: Refusal = { error: "invalid_unfurls_format" };

/** The URLs a message's text links to, as Slack reads them (mrkdwn.ts). */
export function linkedUrls(call: Call, row: MessageRow): string[] {
  return richElements(row.text, directoryOf(call)).flatMap((e) => (e.type === "link" ? [e.url] : []));
}

const sameUrl = (a: string, b: string) => a === b || a.replace(/\/$/, "") === b.replace(/\/$/, "");

/** The message an unfurl is for, which the caller must see. */
function unfurledMessage(call: Call, args: { channel?: string; ts?: string; unfurl_id?: string; source?: string }): MessageRow {
  if (args.unfurl_id !== undefined) {
    if (args.source === undefined) fail("missing_source");
    // Unfurl ids come with link_shared events, which the twin does not send.
    return fail("cannot_find_message");
  }
  if (args.channel === undefined) return fail("missing_channel");
  if (args.ts === undefined) return fail("missing_ts");
  const channel = channelRow(call.db, args.channel);
  if (!channel || !canSee(call, channel)) return fail("cannot_find_message");
  return messageRow(call.db, channel.id, args.ts) ?? fail("cannot_find_message");
}

/** Each unfurl as the attachment Slack keeps for it, checked as a message's attachments are. */
function unfurlAttachments(call: Call, unfurls: Record<string, Json>, urls: readonly string[], first: number): Json[] {
  return Object.entries(unfurls).map(([url, unfurl], i) => {
    if (!urls.some((u) => sameUrl(u, url))) fail("cannot_unfurl_url");
    if (unfurl.blocks !== undefined) {
      const problems = blockProblems(unfurl.blocks);
      if (problems.length) fail("invalid_blocks", invalidBlocksExtra(problems));
    }
    const problems = attachmentProblems([unfurl]);
    if (problems.length) fail("invalid_unfurls_format", invalidBlocksExtra(problems));
    return { id: first + i, ...unfurl, app_unfurl_url: url, is_app_unfurl: true, app_id: call.installation.app_id };
  });
}

export const unfurlRoutes: Route[] = [
  ...method({
    name: "chat.unfurl",
    summary: "Adds the app's previews of links a message holds, as the message's attachments",
    scopes: ["links:write"],
    args: {
      channel: text().optional().describe("The message's conversation (C…)"),
      ts: text().optional().describe("The message's ts"),
      unfurl_id: text().optional().describe("The unfurl id of a link_shared event (with source)"),
      source: text().optional().describe("composer or conversations_history (with unfurl_id)"),
      unfurls: json(z.record(z.string(), z.record(z.string(), z.unknown())), { missing: "missing_unfurls", wrong: BAD_UNFURLS }).describe(
        'JSON object from each URL in the message to its preview: a legacy attachment or {"blocks": […]}',
      ),
      user_auth_required: flag().optional().describe("Ask the user to authenticate instead (accepted, not shown)"),
      user_auth_message: text().optional().describe("The authentication prompt (accepted, not shown)"),
      user_auth_url: text().optional().describe("Where the user authenticates (accepted, not shown)"),
    },
    tool: {
      description: "Previews links of a message (channel + ts): unfurls maps each URL the message holds to an attachment or {blocks}.",
    },
    handler: (call, args) => {
      const row = unfurledMessage(call, args);
      if (Object.keys(args.unfurls).length === 0) fail("missing_unfurls");
      const data = messageData(row);
      const kept = (data.attachments ?? []).filter(
        (a) => !(a.is_app_unfurl === true && typeof a.app_unfurl_url === "string" && Object.hasOwn(args.unfurls, a.app_unfurl_url)),
      );
      const next = kept.reduce((n, a) => Math.max(n, typeof a.id === "number" ? a.id : 0), 0) + 1;
      const added = unfurlAttachments(call, args.unfurls, linkedUrls(call, row), next);
      const attachments = [...kept, ...added];
      call.db.run(
        "UPDATE sl_messages SET data = ? WHERE channel = ? AND ts = ?",
        JSON.stringify({ ...data, attachments }),
        row.channel,
        row.ts,
      );
      return {};
    },
  }),
];
