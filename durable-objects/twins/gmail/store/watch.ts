// users.watch and its push notifications. A watch names a Pub/Sub topic; the seed registers the
// topic's push subscriptions (Pub/Sub's own Subscription shape: name, topic,
// pushConfig.pushEndpoint). After a call that moved the mailbox's historyId, each subscription
// of the watched topic gets one push in Pub/Sub's envelope, its data Gmail's notification
// `{emailAddress, historyId}` (https://developers.google.com/gmail/api/guides/push), sent by the
// platform's delivery mechanism under its egress policy.
import type { Db } from "../../types";
import type { WebhookDelivery } from "../../types";
import { toBase64, utf8 } from "../../kit/bytes";
import { currentHistoryId, getJson, getMeta, mailboxAddress, nextCount, setJson, setMeta } from "./meta";

export interface GmailWatch {
  topicName: string;
  labelIds?: string[];
  labelFilterBehavior?: "include" | "exclude";
  /** Milliseconds since the epoch, as a string (Gmail's `expiration`). */
  expiration: string;
  /** The history id the watch started at. */
  historyId: string;
}

export interface PubsubSubscription {
  name: string;
  topic: string;
  pushConfig: { pushEndpoint: string };
}

/** Gmail's watch lasts seven days ("call watch at least every 7 days"). */
export const WATCH_MS = 7 * 86_400_000;

export const watchOf = (db: Db): GmailWatch | undefined => getJson<GmailWatch | null>(db, "watch", null) ?? undefined;

export function startWatch(db: Db, watch: Omit<GmailWatch, "historyId" | "expiration">, now: number): GmailWatch {
  const started: GmailWatch = { ...watch, expiration: String(now + WATCH_MS), historyId: String(currentHistoryId(db)) };
  setJson(db, "watch", started);
  setMeta(db, "watch_notified", started.historyId);
  return started;
}

export function stopWatch(db: Db): void {
  setJson(db, "watch", null);
}

/** Whether the changes after `last` touch the watched labels as the watch's filter asks. */
function concernsWatch(db: Db, watch: GmailWatch, last: number, current: number): boolean {
  const wanted = watch.labelIds ?? [];
  if (!wanted.length) return true;
  const rows = db.all<{ label_ids: string; message_labels: string }>(
    "SELECT label_ids, message_labels FROM gm_history WHERE id > ? AND id <= ?",
    last,
    current,
  );
  const touches = (r: { label_ids: string; message_labels: string }) => {
    const labels = [...(JSON.parse(r.label_ids) as string[]), ...(JSON.parse(r.message_labels) as string[])];
    return labels.some((l) => wanted.includes(l));
  };
  return watch.labelFilterBehavior === "exclude" ? rows.some((r) => !touches(r)) : rows.some(touches);
}

/**
 * The pushes owed since the last one: none without a live watch or without a change. Marks the
 * current history id as notified (in the call's transaction, so a refused call owes nothing).
 */
export function pushesOwed(db: Db, now: number): WebhookDelivery[] {
  const watch = watchOf(db);
  if (!watch || Number(watch.expiration) <= now) return [];
  const last = Number(getMeta(db, "watch_notified") ?? watch.historyId);
  const current = currentHistoryId(db);
  if (current <= last) return [];
  setMeta(db, "watch_notified", String(current));
  if (!concernsWatch(db, watch, last, current)) return [];
  const notification = { emailAddress: mailboxAddress(db), historyId: String(current) };
  const data = toBase64(utf8(JSON.stringify(notification)));
  return getJson<PubsubSubscription[]>(db, "pubsub_subscriptions", [])
    .filter((s) => s.topic === watch.topicName)
    .map((s) => {
      const messageId = String(nextCount(db, "pubsub_message", 1000));
      const publishTime = new Date(now).toISOString();
      // Pub/Sub's push body carries both spellings of the message's ids and time.
      const body = {
        message: { data, messageId, message_id: messageId, publishTime, publish_time: publishTime, attributes: {} },
        subscription: s.name,
      };
      return { url: s.pushConfig.pushEndpoint, body: JSON.stringify(body), headers: { "content-type": "application/json" } };
    });
}
