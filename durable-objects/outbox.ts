// Webhooks a twin's world sends (events, change notifications): queued in the same transaction as
// the change that caused them, sent once it has committed, signed at send time, retried on later
// calls when the receiver was down. Secrets stay in the outbox row, never on the tape.
import type { Db } from "./sql";
import type { TwinDefinition, WebhookDelivery } from "./twins/types";

export const OUTBOX_MIGRATION = {
  name: "0006_outbox",
  sql: `CREATE TABLE _outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, twin TEXT NOT NULL, url TEXT NOT NULL, body TEXT NOT NULL,
    headers TEXT NOT NULL, secret TEXT, attempts INTEGER NOT NULL DEFAULT 0, delivered_at INTEGER, last_status INTEGER)`,
};

/** Deliveries stop being retried after this many attempts. */
const MAX_ATTEMPTS = 5;

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

/** Sends every pending delivery in order; the receiver's answer is recorded, never thrown. */
export async function flushOutbox(db: Db, twinFor: (id: string) => TwinDefinition | undefined, send: typeof fetch = fetch): Promise<void> {
  const pending = db.all<OutboxRow>(
    "SELECT id, twin, url, body, headers, secret FROM _outbox WHERE delivered_at IS NULL AND attempts < ? ORDER BY id",
    MAX_ATTEMPTS,
  );
  for (const row of pending) {
    const twin = twinFor(row.twin);
    const signed = row.secret && twin?.signWebhook ? await twin.signWebhook({ body: row.body, secret: row.secret }, Date.now()) : {};
    const headers = {
      "content-type": "application/json; charset=utf-8",
      ...(JSON.parse(row.headers) as Record<string, string>),
      ...signed,
    };
    let status = 0;
    try {
      const res = await send(row.url, { method: "POST", headers, body: row.body });
      status = res.status;
      await res.body?.cancel();
    } catch {
      status = 0;
    }
    const delivered = status >= 200 && status < 300 ? Date.now() : null;
    db.run("UPDATE _outbox SET attempts = attempts + 1, delivered_at = ?, last_status = ? WHERE id = ?", delivered, status, row.id);
  }
}
