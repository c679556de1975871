// Repository webhooks and the deliveries the twin made to them. A delivery is recorded when it is
// queued (status `queued`): the platform sends it after the call commits and tells the twin how
// each attempt went (recordAttempt), which the delivery log and the hook's last response show.
import type { Db, WebhookAttempt } from "../../types";
import { nextId, type Store } from "./base";

export interface HookRow {
  id: number;
  repo_id: number;
  url: string;
  content_type: "json" | "form";
  secret: string | null;
  insecure_ssl: string;
  events: string;
  active: number;
  created_at: string;
  updated_at: string;
  last_response: string | null;
}

export interface DeliveryRow {
  id: number;
  hook_id: number;
  repo_id: number;
  guid: string;
  event: string;
  action: string | null;
  delivered_at: string;
  redelivery: number;
  url: string;
  headers: string;
  payload: string;
  status: string;
  status_code: number;
  /** Seconds the last attempt took. */
  duration: number;
  /** The receiver's answer headers on the last attempt, as JSON. */
  response_headers: string;
}

export const eventsOf = (h: HookRow) => JSON.parse(h.events) as string[];

export const findHook = (db: Db, repoId: number, id: number) =>
  db.one<HookRow>("SELECT * FROM gh_hooks WHERE repo_id = ? AND id = ?", repoId, id);

export function listHooks(db: Db, repoId: number, limit: number, offset: number) {
  return {
    rows: db.all<HookRow>("SELECT * FROM gh_hooks WHERE repo_id = ? ORDER BY id LIMIT ? OFFSET ?", repoId, limit, offset),
    total: db.one<{ n: number }>("SELECT count(*) AS n FROM gh_hooks WHERE repo_id = ?", repoId)?.n ?? 0,
  };
}

/** Whether the repository has any hook: one index probe, so events cost nothing in a world without hooks. */
export const hasHooks = (db: Db, repoId: number) =>
  db.one<{ x: number }>("SELECT 1 AS x FROM gh_hooks WHERE repo_id = ? LIMIT 1", repoId) !== undefined;

/** The active hooks of a repository that take `event` (or every event, `*`). A repository holds at most 20. */
export function activeHooksFor(db: Db, repoId: number, event: string): HookRow[] {
  return db
    .all<HookRow>("SELECT * FROM gh_hooks WHERE repo_id = ? AND active = 1 ORDER BY id LIMIT 100", repoId)
    .filter((h) => eventsOf(h).some((e) => e === event || e === "*"));
}

export interface HookInput {
  url: string;
  content_type: "json" | "form";
  secret: string | null;
  insecure_ssl: string;
  events: string[];
  active: boolean;
}

export function createHook(s: Store, repoId: number, h: HookInput): HookRow {
  const id = nextId(s.db);
  s.db.run(
    `INSERT INTO gh_hooks (id, repo_id, url, content_type, secret, insecure_ssl, events, active, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    repoId,
    h.url,
    h.content_type,
    h.secret,
    h.insecure_ssl,
    JSON.stringify(h.events),
    h.active ? 1 : 0,
    s.now,
    s.now,
  );
  return findHook(s.db, repoId, id) as HookRow;
}

export function updateHook(s: Store, hook: HookRow, h: HookInput): HookRow {
  s.db.run(
    "UPDATE gh_hooks SET url = ?, content_type = ?, secret = ?, insecure_ssl = ?, events = ?, active = ?, updated_at = ? WHERE id = ?",
    h.url,
    h.content_type,
    h.secret,
    h.insecure_ssl,
    JSON.stringify(h.events),
    h.active ? 1 : 0,
    s.now,
    hook.id,
  );
  return findHook(s.db, hook.repo_id, hook.id) as HookRow;
}

export function deleteHook(db: Db, hook: HookRow): void {
  db.run("DELETE FROM gh_hook_deliveries WHERE hook_id = ?", hook.id);
  db.run("DELETE FROM gh_hooks WHERE id = ?", hook.id);
}

/** Records a delivery; `identify` names it (its GUID and headers) from its id. */
export function recordDelivery(
  db: Db,
  hook: HookRow,
  d: { event: string; action: string | null; payload: string; at: string; redelivery: boolean },
  identify: (id: number) => { guid: string; headers: Record<string, string> },
): DeliveryRow {
  const id = nextId(db);
  const { guid, headers } = identify(id);
  db.run(
    `INSERT INTO gh_hook_deliveries (id, hook_id, repo_id, guid, event, action, delivered_at, redelivery, url, headers, payload, status, status_code)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0)`,
    id,
    hook.id,
    hook.repo_id,
    guid,
    d.event,
    d.action,
    d.at,
    d.redelivery ? 1 : 0,
    hook.url,
    JSON.stringify(headers),
    d.payload,
  );
  db.run("UPDATE gh_hooks SET last_response = ? WHERE id = ?", JSON.stringify({ code: null, status: "queued", message: null }), hook.id);
  return db.one<DeliveryRow>("SELECT * FROM gh_hook_deliveries WHERE id = ?", id) as DeliveryRow;
}

export function listDeliveries(db: Db, hookId: number, limit: number, beforeId: number | undefined) {
  return db.all<DeliveryRow>(
    "SELECT * FROM gh_hook_deliveries WHERE hook_id = ? AND id < ? ORDER BY id DESC LIMIT ?",
    hookId,
    beforeId ?? Number.MAX_SAFE_INTEGER,
    limit,
  );
}

export const findDelivery = (db: Db, hookId: number, id: number) =>
  db.one<DeliveryRow>("SELECT * FROM gh_hook_deliveries WHERE hook_id = ? AND id = ?", hookId, id);

/**
 * GitHub's words for an attempt's outcome, as its delivery log shows them: `OK` for a 2xx, else
 * `Invalid HTTP Response: <code>` (the form receivers report seeing, e.g.
 * progval/Supybot-plugins#166), or why nothing answered.
 */
function outcomeOf(a: WebhookAttempt): string {
  if (a.status >= 200 && a.status < 300) return "OK";
  if (a.status > 0) return `Invalid HTTP Response: ${a.status}`;
  return a.error ? `We couldn't deliver this payload: ${a.error}` : "We couldn't deliver this payload";
}

/** Records how an attempt to send a delivery went, on the delivery and on its hook's last response. */
export function recordAttempt(db: Db, a: WebhookAttempt): void {
  const guid = a.headers["x-github-delivery"];
  if (!guid) return;
  const row = db.one<{ id: number; hook_id: number }>("SELECT id, hook_id FROM gh_hook_deliveries WHERE guid = ?", guid);
  if (!row) return;
  const status = outcomeOf(a);
  db.run(
    "UPDATE gh_hook_deliveries SET status = ?, status_code = ?, duration = ?, response_headers = ? WHERE id = ?",
    status,
    a.status,
    a.durationMs / 1000,
    JSON.stringify(a.responseHeaders),
    row.id,
  );
  const last = { code: a.status || null, status: "active", message: status };
  db.run("UPDATE gh_hooks SET last_response = ? WHERE id = ?", JSON.stringify(last), row.hook_id);
}
