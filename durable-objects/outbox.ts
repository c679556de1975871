// Webhooks a twin's world sends (events, change notifications): queued in the same transaction as
// the change that caused them, sent once it has committed, signed at send time, retried on later
// calls when the receiver was down. Secrets stay in the outbox row, never on the tape.
//
// Each endpoint (URL) has its own queue, sent in order; queues run side by side, so a slow or dead
// receiver holds back only its own deliveries. The egress policy is asked again at send time, no
// redirect is followed (a 3xx is a failed delivery, as the vendors count it), and each attempt has
// DELIVERY_TIMEOUT_MS to answer. Nothing here throws: a failure is recorded, never raised.
import type { EgressVerdict } from "./egress";
import type { Db } from "./sql";
import { recordDeliveryFailure } from "./timed";
import type { TwinDefinition, WebhookAttempt, WebhookDelivery } from "./twins/types";

export const OUTBOX_MIGRATION = {
  name: "0006_outbox",
  sql: `CREATE TABLE _outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, twin TEXT NOT NULL, url TEXT NOT NULL, body TEXT NOT NULL,
    headers TEXT NOT NULL, secret TEXT, attempts INTEGER NOT NULL DEFAULT 0, delivered_at INTEGER, last_status INTEGER)`,
};

/** Deliveries stop being retried after this many attempts. */
export const MAX_ATTEMPTS = 5;

/**
 * How long one attempt may take to answer. The vendors the twins copy give a receiver between 5 s
 * (the shortest documented figure) and 10 s before counting the delivery failed; 5 s is the
 * shortest, so a receiver that works against any of them works here, and a dead one costs its
 * own queue 5 s per attempt, never another endpoint's.
 */
export const DELIVERY_TIMEOUT_MS = 5000;

/**
 * Whether `_outbox` may hold a pending delivery, per Db: set by enqueueWebhook, cleared when a
 * count finds none. Only enqueueing makes a delivery pending, so a clear flag is never wrong, and
 * a call in a world without webhooks skips the count.
 */
const mayHoldPending = new WeakMap<Db, boolean>();

export function enqueueWebhook(db: Db, twin: string, d: WebhookDelivery): void {
  mayHoldPending.set(db, true);
  db.run(
    "INSERT INTO _outbox (twin, url, body, headers, secret) VALUES (?, ?, ?, ?, ?)",
    twin,
    d.url,
    d.body,
    JSON.stringify(d.headers ?? {}),
    d.secret ?? null,
  );
}

interface OutboxRow {
  id: number;
  twin: string;
  url: string;
  body: string;
  headers: string;
  secret: string | null;
}

export function hasPendingWebhooks(db: Db): number {
  if (mayHoldPending.get(db) === false) return 0;
  const n = db.one<{ n: number }>("SELECT count(*) AS n FROM _outbox WHERE delivered_at IS NULL AND attempts < ?", MAX_ATTEMPTS)?.n ?? 0;
  if (n === 0) mayHoldPending.set(db, false);
  return n;
}

export interface OutboxSender {
  twinFor(id: string): TwinDefinition | undefined;
  /** The egress policy's answer for a URL, asked again just before each delivery is sent. */
  egress(url: string): EgressVerdict;
  send?: typeof fetch;
  timeoutMs?: number;
}

/** The endpoints being sent to, per Db: one queue each, so a delivery is never sent twice at once. */
const queues = new WeakMap<Db, Map<string, Promise<void>>>();

/**
 * Starts a queue for every endpoint with pending deliveries that has none running, and resolves
 * when every queue of this Db has drained. A queue takes up deliveries queued while it runs.
 */
export function flushOutbox(db: Db, sender: OutboxSender): Promise<void> {
  let running = queues.get(db);
  if (!running) {
    running = new Map();
    queues.set(db, running);
  }
  const endpoints = db.all<{ url: string }>(
    "SELECT url FROM _outbox WHERE delivered_at IS NULL AND attempts < ? GROUP BY url ORDER BY min(id)",
    MAX_ATTEMPTS,
  );
  for (const { url } of endpoints) {
    if (running.has(url)) continue;
    // Started on the next microtask, so the queue is in the map before it can finish and leave it.
    const byUrl = running;
    running.set(
      url,
      Promise.resolve().then(() => drainEndpoint(db, url, sender, byUrl)),
    );
  }
  return Promise.all(running.values()).then(() => undefined);
}

/** Sends one endpoint's pending deliveries in order, each once per run; a failed one waits for the next run. */
async function drainEndpoint(db: Db, url: string, sender: OutboxSender, running: Map<string, Promise<void>>): Promise<void> {
  try {
    for (let after = 0; ; ) {
      const row = db.one<OutboxRow>(
        "SELECT id, twin, url, body, headers, secret FROM _outbox WHERE url = ? AND delivered_at IS NULL AND attempts < ? AND id > ? ORDER BY id LIMIT 1",
        url,
        MAX_ATTEMPTS,
        after,
      );
      if (!row) return;
      after = row.id;
      await deliverOne(db, row, sender);
    }
  } catch (err) {
    // Only storage can fail here (the sandbox is gone, say): the rows stay pending for the next run.
    console.warn("webhook queue stopped", err instanceof Error ? err.message : String(err));
  } finally {
    running.delete(url);
  }
}

async function deliverOne(db: Db, row: OutboxRow, sender: OutboxSender): Promise<void> {
  const verdict = sender.egress(row.url);
  if (!verdict.allowed) {
    // The setting changed since it was queued: no attempt is made, now or later.
    db.run("UPDATE _outbox SET attempts = ?, last_status = 0 WHERE id = ?", MAX_ATTEMPTS, row.id);
    recordDeliveryFailure(db, row.twin, "webhook", Date.now(), `refused by the egress policy: ${verdict.reason}`);
    return;
  }
  const twin = sender.twinFor(row.twin);
  const started = Date.now();
  let status = 0;
  let responseHeaders: Record<string, string> = {};
  let error: string | undefined;
  try {
    const signed = row.secret && twin?.signWebhook ? await twin.signWebhook({ body: row.body, secret: row.secret }, Date.now()) : {};
    const headers = {
      "content-type": "application/json; charset=utf-8",
      ...(JSON.parse(row.headers) as Record<string, string>),
      ...signed,
    };
    const send = sender.send ?? fetch;
    const res = await send(row.url, {
      method: "POST",
      headers,
      body: row.body,
      redirect: "manual",
      signal: AbortSignal.timeout(sender.timeoutMs ?? DELIVERY_TIMEOUT_MS),
    });
    status = res.status;
    responseHeaders = Object.fromEntries(res.headers);
    await res.body?.cancel();
  } catch (err) {
    // Signing, sending, or the timeout: this attempt failed; later calls retry it.
    error = err instanceof Error ? err.message : String(err);
    recordDeliveryFailure(db, row.twin, "webhook", Date.now(), err);
  }
  const at = Date.now();
  const delivered = status >= 200 && status < 300 ? at : null;
  db.run("UPDATE _outbox SET attempts = attempts + 1, delivered_at = ?, last_status = ? WHERE id = ?", delivered, status, row.id);
  const attempt: WebhookAttempt = {
    headers: JSON.parse(row.headers) as Record<string, string>,
    status,
    responseHeaders,
    durationMs: at - started,
    at,
    ...(error === undefined ? {} : { error }),
  };
  try {
    twin?.webhookAttempted?.(db, attempt);
  } catch (err) {
    // The twin's log of deliveries is its own: a failure there never stops the queue.
    recordDeliveryFailure(db, row.twin, "webhook", at, err);
  }
}
