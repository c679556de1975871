// Timed behaviour several twins share, on one platform mechanism driven by the sandbox's calls and
// clock: deliveries a twin schedules (a seeded teammate's reply, a correspondent's answer) fire
// just before the call they are due at, and seeded faults answer chosen calls in the vendor's own
// shape. Neither is a call of its own: a delivery adds no tape row, a fault changes nothing. A
// delivery that throws is undone, recorded in `_delivery_failures` and dropped: the call it rode on
// is served as if it had never been due, so no world can make its sandbox answer 500 forever.
import { type Db, WriteWhileReadingOnly } from "./sql";
import { perStorage } from "./twins/kit/boot-constants";
import type { After, Clock, FaultRule, TwinDefinition, TwinRequest, TwinResponse } from "./twins/types";

export const TIMED_MIGRATIONS = [
  {
    name: "0004_scheduled",
    sql: `CREATE TABLE _scheduled (id INTEGER PRIMARY KEY AUTOINCREMENT, twin TEXT NOT NULL, kind TEXT NOT NULL,
      payload TEXT NOT NULL, calls_left INTEGER, due_at INTEGER)`,
  },
  {
    name: "0005_fault_counts",
    sql: "CREATE TABLE _fault_counts (twin TEXT NOT NULL, rule INTEGER NOT NULL, seen INTEGER NOT NULL, PRIMARY KEY (twin, rule))",
  },
];

/**
 * Whether `_scheduled` may hold a row, per Db (so a Durable Object that starts afresh looks once).
 * Most worlds schedule nothing, and looking cost every call two statements. schedule() sets it; it
 * is cleared only when a look at the start of a call finds nothing due and the table empty: that
 * look changed nothing, so a rollback of the call's transaction cannot bring a row back unseen.
 */
const mayHoldScheduled = new WeakMap<Db, boolean>();

export function schedule(db: Db, twin: string, kind: string, payload: unknown, after: After, now: number): void {
  mayHoldScheduled.set(db, true);
  const callsLeft = "calls" in after ? Math.max(0, Math.floor(after.calls)) : null;
  const dueAt = "seconds" in after ? now + Math.max(0, after.seconds) * 1000 : null;
  db.run(
    "INSERT INTO _scheduled (twin, kind, payload, calls_left, due_at) VALUES (?, ?, ?, ?, ?)",
    twin,
    kind,
    JSON.stringify(payload),
    callsLeft,
    dueAt,
  );
}

interface ScheduledRow {
  id: number;
  twin: string;
  kind: string;
  payload: string;
}

/**
 * Failed deliveries, for diagnosis: which twin, what kind, when, and the error's message (never the
 * payload, which may hold what a seed wrote). Appended to the platform's list after the tape's.
 */
export const DELIVERY_FAILURES_MIGRATION = {
  name: "0008_delivery_failures",
  sql: "CREATE TABLE _delivery_failures (id INTEGER PRIMARY KEY AUTOINCREMENT, twin TEXT NOT NULL, kind TEXT NOT NULL, failed_at INTEGER NOT NULL, error TEXT NOT NULL)",
};

/**
 * Runs `work` so that what it wrote is undone if it throws, the caller's transaction going on: the
 * Sandbox passes a nested `transactionSync` (a savepoint; SQLite's own SAVEPOINT is refused in a
 * Durable Object). Without one (a harness outside any transaction) a throw cannot be undone.
 */
export type Savepoint = <T>(work: () => T) => T;

/** Records a delivery that failed: a row in `_delivery_failures` and a warning with no payload. */
export function recordDeliveryFailure(db: Db, twin: string, kind: string, at: number, err: unknown): void {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  console.warn("delivery failed and was dropped", twin, kind, message);
  db.run("INSERT INTO _delivery_failures (twin, kind, failed_at, error) VALUES (?, ?, ?, ?)", twin, kind, at, message);
}

/**
 * Runs what is due. At the start of a call (`counting`), every delivery waiting on calls moves one
 * call closer; at the end of a call only those scheduled `{ calls: 0 }` by it are due. Each
 * delivery runs in its own savepoint: one that throws leaves nothing behind but its failure row.
 */
export function fireDue(
  db: Db,
  clock: Clock,
  twinFor: (id: string) => TwinDefinition | undefined,
  counting: boolean,
  savepoint: Savepoint = (work) => work(),
): void {
  if (mayHoldScheduled.get(db) === false) return;
  if (counting) db.run("UPDATE _scheduled SET calls_left = calls_left - 1 WHERE calls_left IS NOT NULL");
  const due = db.all<ScheduledRow>(
    "SELECT id, twin, kind, payload FROM _scheduled WHERE calls_left <= 0 OR due_at <= ? ORDER BY id",
    counting ? clock.now() : -1,
  );
  if (counting && due.length === 0 && db.one("SELECT 1 AS one FROM _scheduled LIMIT 1") === undefined) mayHoldScheduled.set(db, false);
  for (const row of due) {
    db.run("DELETE FROM _scheduled WHERE id = ?", row.id);
    const twin = twinFor(row.twin);
    if (!twin?.deliver) continue;
    try {
      savepoint(() => twin.deliver?.(db, clock, row.kind, JSON.parse(row.payload) as unknown));
    } catch (err) {
      // A read served without a transaction met a write: it is served again inside one.
      if (err instanceof WriteWhileReadingOnly) throw err;
      recordDeliveryFailure(db, row.twin, row.kind, clock.now(), err);
    }
  }
}

/** Each twin's seeded faults, read once per sandbox: boot fixes them (TwinDefinition.faults). */
const seededFaults = perStorage<readonly FaultRule[]>();

/** The seeded fault this call of `operation` meets, if any; counting it is the only write. */
export function faultFor(db: Db, twin: TwinDefinition, operation: string, req: TwinRequest): TwinResponse | undefined {
  const rules = twin.faults ? seededFaults(db).get(twin.id, () => Object.freeze(twin.faults?.(db) ?? [])) : [];
  for (const [index, rule] of rules.entries()) {
    if (rule.operation !== operation) continue;
    const row = db.one<{ seen: number }>("SELECT seen FROM _fault_counts WHERE twin = ? AND rule = ?", twin.id, index);
    const seen = (row?.seen ?? 0) + 1;
    db.run("INSERT OR REPLACE INTO _fault_counts (twin, rule, seen) VALUES (?, ?, ?)", twin.id, index, seen);
    if (seen > rule.skip && seen <= rule.skip + rule.times) return rule.response(req);
  }
  return undefined;
}
