// chat.unfurl: an app's preview of links in a message, kept as the message's attachments as
// Slack shows them (each marked `is_app_unfurl` with the URL it previews, replacing an earlier
// preview of the same URL). The message is named by `channel` + `ts`, or by `unfurl_id` + `source`
// from a link_shared event the app was sent (the seed's `link_shares`): `conversations_history`
// for a posted message, `composer` for links still being typed, whose previews are kept on the
// share (there is no message yet). Slack sends link_shared for any conversation, member or not
// (api.slack.com/changelog/2020-11-app-unfurls-everywhere), so a shared message may be unfurled
// where the bot could not read it; and it still takes the event's `channel` + `message_ts` in place
// of the id (COMPOSER + the id for a composer share; changelog 2021-08-changes-to-unfurls).
// `unfurls` is a JSON object from each URL to a legacy attachment or `{blocks}`. Refusals are the
// codes on the method's docs.slack.dev page: `missing_unfurl_id`, `missing_source`,
// `invalid_source`, `invalid_unfurl_id`, `cannot_find_message`, `cannot_unfurl_url` (a URL the
// message or the event does not hold), `missing_unfurls`, `invalid_unfurls_format`, `invalid_blocks`.
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
import type { SlackLinkShare } from "../seed-surfaces";

type Json = Record<string, unknown>;

const SOURCES = new Set(["conversations_history", "composer"]);

/** The pseudo-channel of a link_shared event from the composer. */
const COMPOSER = "COMPOSER";

const BAD_UNFURLS: Refusal = { error: "invalid_unfurls_format" };

/** The URLs a message's text links to, as Slack reads them (mrkdwn.ts). */
export function linkedUrls(call: Call, row: MessageRow): string[] {
  return richElements(row.text, directoryOf(call)).flatMap((e) => (e.type === "link" ? [e.url] : []));
}

const sameUrl = (a: string, b: string) => a === b || a.replace(/\/$/, "") === b.replace(/\/$/, "");

const shareRow = (call: Call, unfurlId: string) =>
  call.db.one<{ data: string }>("SELECT data FROM sl_link_shares WHERE unfurl_id = ?", unfurlId);

const shareOf = (row: { data: string } | undefined): SlackLinkShare | undefined =>
  row ? (JSON.parse(row.data) as SlackLinkShare) : undefined;

/** The event a posted message was shared in, if the app was sent one. */
const shareOfMessage = (call: Call, channel: string, ts: string) =>
  shareOf(call.db.one<{ data: string }>("SELECT data FROM sl_link_shares WHERE channel = ? AND message_ts = ?", channel, ts));

/** What an unfurl is for: a posted message (and the event it was shared in, if any), or a composer share. */
type Target = { message: MessageRow; share?: SlackLinkShare } | { composer: SlackLinkShare };

function byUnfurlId(call: Call, unfurlId: string | undefined, source: string | undefined): Target {
  if (unfurlId === undefined) return fail("missing_unfurl_id");
  if (source === undefined) return fail("missing_source");
  if (!SOURCES.has(source)) return fail("invalid_source");
  const share = shareOf(shareRow(call, unfurlId));
  if (!share || share.source !== source) return fail("invalid_unfurl_id");
  if (share.source === "composer") return { composer: share };
  const message = messageRow(call.db, share.channel ?? "", share.message_ts ?? "") ?? fail("cannot_find_message");
  return { message, share };
}

/** The message (or composer share) an unfurl is for. */
function unfurlTarget(call: Call, args: { channel?: string; ts?: string; unfurl_id?: string; source?: string }): Target {
  if (args.unfurl_id !== undefined || args.source !== undefined) return byUnfurlId(call, args.unfurl_id, args.source);
  if (args.channel === undefined) return fail("missing_channel");
  if (args.ts === undefined) return fail("missing_ts");
  if (args.channel === COMPOSER) return byUnfurlId(call, args.ts, "composer");
  const channel = channelRow(call.db, args.channel);
  if (!channel) return fail("cannot_find_message");
  const share = shareOfMessage(call, channel.id, args.ts);
  // A message the app was sent a link_shared event for may be unfurled even where the bot is no member.
  if (!share && !canSee(call, channel)) return fail("cannot_find_message");
  const message = messageRow(call.db, channel.id, args.ts) ?? fail("cannot_find_message");
  return share ? { message, share } : { message };
}

/** The URLs an unfurl may preview: the event's links if the app was sent one, else the message's own. */
function unfurlableUrls(call: Call, target: Target): string[] {
  if ("composer" in target) return target.composer.links.map((l) => l.url);
  return target.share ? target.share.links.map((l) => l.url) : linkedUrls(call, target.message);
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
      unfurl_id: text().optional().describe("The unfurl_id of the link_shared event (with source)"),
      source: text().optional().describe("composer or conversations_history (with unfurl_id)"),
      unfurls: json(z.record(z.string(), z.record(z.string(), z.unknown())), { missing: "missing_unfurls", wrong: BAD_UNFURLS }).describe(
        'JSON object from each URL in the message to its preview: a legacy attachment or {"blocks": […]}',
      ),
      user_auth_required: flag().optional().describe("Ask the user to authenticate instead (accepted, not shown)"),
      user_auth_message: text().optional().describe("The authentication prompt (accepted, not shown)"),
      user_auth_url: text().optional().describe("Where the user authenticates (accepted, not shown)"),
    },
    tool: {
      description:
        "Previews links of a message (channel + ts, or a link_shared event's unfurl_id + source): unfurls maps each URL shared to an attachment or {blocks}.",
    },
    handler: (call, args) => {
      const target = unfurlTarget(call, args);
      if (Object.keys(args.unfurls).length === 0) fail("missing_unfurls");
      const urls = unfurlableUrls(call, target);
      if ("composer" in target) {
        // Checked as a message's would be; kept on the share until the message is posted.
        unfurlAttachments(call, args.unfurls, urls, 1);
        const share: SlackLinkShare = { ...target.composer, unfurls: { ...target.composer.unfurls, ...args.unfurls } };
        call.db.run("UPDATE sl_link_shares SET data = ? WHERE unfurl_id = ?", JSON.stringify(share), share.unfurl_id);
        return {};
      }
      const row = target.message;
      const data = messageData(row);
      const kept = (data.attachments ?? []).filter(
        (a) => !(a.is_app_unfurl === true && typeof a.app_unfurl_url === "string" && Object.hasOwn(args.unfurls, a.app_unfurl_url)),
      );
      const next = kept.reduce((n, a) => Math.max(n, typeof a.id === "number" ? a.id : 0), 0) + 1;
      const added = unfurlAttachments(call, args.unfurls, urls, next);
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
