// One Durable Object per sandbox: the twins' worlds and the tape live in its SQLite storage, and
// its one alarm drives both the wall-clock lifetime and the idle timer. Domain logic lives in the
// twins and in dispatch(); this class wires storage, time, and the D1/R2 mirrors.
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import { dispatch, readsOnly, requestEntry, type DispatchResult } from "./dispatch";
import { redactValue } from "./redact";
import { Db, applyMigrations, twinMigrationList } from "./sql";
import { SNAPSHOTS_MIGRATION, readSnapshots, saveSnapshotText } from "./snapshots";
import { completeSeed } from "./twins/normalize";
import { DELIVERY_FAILURES_MIGRATION, TIMED_MIGRATIONS, fireDue, type Savepoint } from "./timed";
import { checkEgress, egressPolicyFrom, type EgressPolicy } from "./egress";
import { OUTBOX_MIGRATION, flushOutbox, hasPendingWebhooks } from "./outbox";
import { TAPE_MIGRATION, TAPE_PARTS_MIGRATION, type TapeEntry, appendTape, tapePage } from "./tape";
import { TWIN_IDS, isTwinId, twinById } from "./twins/registry";
import type { TwinId } from "./twins/registry";
import type { Clock, TwinRequest, TwinResponse, WorldReader } from "./twins/types";
import { writeEvidence } from "./evidence-writer";
import { textPages } from "./text-pages";

import { SANDBOX_STATES, isOpen, type SandboxState } from "./sandbox-states";

export { isOpen, type SandboxState };

/** The sandbox's own record, kept as JSON in `_meta` and read back through this schema. */
const SandboxMetaSchema = z.object({
  sessionId: z.string(),
  teamId: z.string(),
  twins: z.array(z.enum(TWIN_IDS)),
  state: z.enum(SANDBOX_STATES),
  createdAt: z.number(),
  readyAt: z.number().nullable(),
  expiresAt: z.number(),
  closedAt: z.number().nullable(),
  lastRequestAt: z.number().nullable(),
  idleSeconds: z.number(),
  /** Why it closed: finalized, lifetime, idle, discarded. */
  closeReason: z.string().nullable(),
  /** Whether the tape and final state were written to R2 when it closed. */
  archived: z.boolean(),
  /** Set by finalize before it reads the evidence: the twins stop answering, the sandbox stays open until the run is written. */
  frozenAt: z.number().nullable().optional(),
});
export type SandboxMeta = z.infer<typeof SandboxMetaSchema>;

type TimerName = "lifetime" | "idle";

export interface ProvisionInput {
  sessionId: string;
  teamId: string;
  twins: TwinId[];
  /**
   * Parsed seeds (the twin's own parser already ran) as JSON text; a twin missing here boots its
   * default world. Text crosses RPC as one copy where a 10,000-issue object was cloned value by
   * value, and when nothing in it is secret the very text is the stored initial state.
   */
  seeds: Partial<Record<TwinId, string>>;
  createdAt: number;
  expiresAt: number;
  idleSeconds: number;
}

/** What exportEvidence wrote to R2: the evidence never crosses RPC as one value. */
export interface ExportedEvidence {
  meta: SandboxMeta;
  tapeLength: number;
  keys: string[];
}

/** /_pome/events pages: rows and characters per answer, so no page outgrows an RPC value. */
const EVENTS_PAGE_ROWS = 1000;
const EVENTS_PAGE_CHARS = 8 * 1024 * 1024;
/** Evidence is read out of storage in pages of this many characters. */
const EXPORT_PAGE_CHARS = 4 * 1024 * 1024;
/**
 * /_pome/state is handed to the router in pages of this many characters (at most 16 MiB as an
 * RPC value, two bytes a character at worst): a world past the 32 MiB RPC limit stays readable.
 */
const STATE_PAGE_CHARS = 8 * 1024 * 1024;
/** How long a state larger than one page is held for the router to read its remaining pages. */
const HELD_STATE_MS = 60_000;
/** States held at once: a further large read lets the oldest go (its reader's body then fails). */
const MAX_HELD_STATES = 2;
/**
 * On the first page of a state larger than one page: `<hold id> <page count>`. Internal between
 * the Sandbox and the router, which reads the other pages with statePage() and never forwards it.
 */
export const STATE_PAGES_HEADER = "x-pome-state-pages";

/** What the benchmark floor answers, from the Durable Object and from the router alone. */
export const BENCH_FLOOR_BODY: TwinResponse = Object.freeze({
  status: 200,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: '{"ok":true}',
});

export type Outcome<T = object> = ({ ok: true } & T) | { ok: false; code: "not_found" | "closed" | "boot_failed"; message: string };

/** Thrown inside a call's transaction to roll back what a twin wrote before refusing the call. */
class RefusedCall {
  constructor(
    readonly result: DispatchResult,
    readonly at: number,
  ) {}
}

const PLATFORM_MIGRATIONS = [
  { name: "0000_meta", sql: "CREATE TABLE _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)" },
  TAPE_MIGRATION,
  { name: "0002_timers", sql: "CREATE TABLE _timers (name TEXT PRIMARY KEY, due_at INTEGER NOT NULL)" },
  SNAPSHOTS_MIGRATION,
  ...TIMED_MIGRATIONS,
  OUTBOX_MIGRATION,
  TAPE_PARTS_MIGRATION,
  DELIVERY_FAILURES_MIGRATION,
  // Asynchronous finalize moved to a Workflow: a job queued by an older version is dropped with
  // its timer (its evaluation can be finalized again), so the alarm never fires for it.
  { name: "0009_finalize_to_workflow", sql: "DELETE FROM _timers WHERE name = 'finalize'; DELETE FROM _meta WHERE key = 'finalize_job'" },
];

export class Sandbox extends DurableObject<Env> {
  readonly #db: Db;
  #meta: SandboxMeta | undefined;
  #nextSeq = 1;
  #lastNow = 0;
  readonly #clock: Clock = {
    now: () => (this.#lastNow = Math.max(Date.now(), this.#lastNow)),
  };

  /** Where webhooks may go: the `EGRESS` setting and the configured origins (egress.ts). */
  readonly #egress: EgressPolicy;
  /** A nested transaction: a delivery that throws is undone without undoing the call it rode on. */
  readonly #savepoint: Savepoint = (work) => this.ctx.storage.transactionSync(work);
  /** The world as a twin's `prepare` may see it: reads only, refused before any other statement runs. */
  readonly #worldReader: WorldReader = {
    all: <T>(query: string, ...params: (string | number | null)[]): T[] => {
      const rows = this.#db.readingOnly(() => this.#db.all<T>(query, ...params));
      if (rows === undefined) throw new Error("a twin's prepare may only read the world");
      return rows;
    },
  };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#db = new Db(ctx.storage.sql);
    this.#egress = egressPolicyFrom(env);
    ctx.blockConcurrencyWhile(async () => {
      applyMigrations(ctx.storage.sql, "platform", PLATFORM_MIGRATIONS);
      const row = this.#db.one<{ value: string }>("SELECT value FROM _meta WHERE key = 'sandbox'");
      this.#meta = row ? SandboxMetaSchema.parse(JSON.parse(row.value)) : undefined;
      // A twin's tables may have gained migrations since this sandbox was provisioned.
      for (const id of this.#meta?.twins ?? []) this.#applyTwinMigrations(id);
      const last = this.#db.one<{ seq: number; at: string }>("SELECT seq, at FROM _tape ORDER BY seq DESC LIMIT 1");
      this.#nextSeq = (last?.seq ?? 0) + 1;
      // Calls keep lastRequestAt in memory only (see recordCall); after a restart the tape says it.
      if (this.#meta && last) this.#meta = { ...this.#meta, lastRequestAt: Math.max(this.#meta.lastRequestAt ?? 0, Date.parse(last.at)) };
    });
  }

  #applyTwinMigrations(id: TwinId): void {
    const { list, migrations } = twinMigrationList(twinById(id));
    applyMigrations(this.ctx.storage.sql, list, migrations);
  }

  #saveMeta(meta: SandboxMeta): void {
    this.#meta = meta;
    this.#db.run("INSERT OR REPLACE INTO _meta (key, value) VALUES ('sandbox', ?)", JSON.stringify(meta));
  }

  #setTimer(name: TimerName, dueAt: number): void {
    this.#db.run("INSERT OR REPLACE INTO _timers (name, due_at) VALUES (?, ?)", name, dueAt);
  }

  /** Moves the stored idle timer to the idle deadline of the last call, when that is later. */
  #catchUpIdle(meta: SandboxMeta): void {
    if (meta.lastRequestAt === null) return;
    this.#db.run("UPDATE _timers SET due_at = max(due_at, ?) WHERE name = 'idle'", meta.lastRequestAt + meta.idleSeconds * 1000);
  }

  /** Points the one alarm at the earliest timer, or clears it when none is left. */
  async #rearm(): Promise<void> {
    const next = this.#db.one<{ due_at: number }>("SELECT min(due_at) AS due_at FROM _timers");
    // A timer already due fires at once (setAlarm refuses times at or before the epoch).
    if (next && next.due_at !== null) await this.ctx.storage.setAlarm(Math.max(next.due_at, 1));
    else await this.ctx.storage.deleteAlarm();
  }

  /** Boots every twin from its seed and opens the sandbox. */
  async provision(input: ProvisionInput): Promise<Outcome<{ meta: SandboxMeta }>> {
    if (this.#meta) return { ok: true, meta: this.#meta };
    const meta: SandboxMeta = {
      sessionId: input.sessionId,
      teamId: input.teamId,
      twins: input.twins,
      state: "provisioning",
      createdAt: input.createdAt,
      readyAt: null,
      expiresAt: input.expiresAt,
      closedAt: null,
      lastRequestAt: null,
      idleSeconds: input.idleSeconds,
      closeReason: null,
      archived: false,
    };
    const ready: SandboxMeta = { ...meta, state: "ready", readyAt: Date.now() };
    try {
      // Before the boot transaction: normalizing finishes with the sandbox clock (what the clock
      // decides, left out on the control plane), then the twin's asynchronous preparation runs.
      const prepared = new Map<TwinId, { seed: unknown; boot: unknown; snapshot: string }>();
      for (const id of input.twins) {
        const twin = twinById(id);
        const text = input.seeds[id];
        const parsed = text === undefined ? twin.defaultSeed() : (JSON.parse(text) as unknown);
        const completed = await completeSeed(twin, parsed, this.#clock);
        if (!completed.ok) throw new Error(`${id} seed refused at boot: ${JSON.stringify(completed.issues.slice(0, 3))}`);
        const redacted = redactValue(completed.seed);
        // The seed's own text is its snapshot when nothing completed or redacted it. (Redacting
        // the text as a tape body is, instead of walking the value, measured slower on a
        // 10,000-issue seed: three scans of 3.3 MB against one walk.)
        const snapshot = text !== undefined && !twin.completeSeed && redacted === parsed ? text : JSON.stringify(redacted);
        prepared.set(id, {
          seed: completed.seed,
          boot: twin.prepareSeed ? await twin.prepareSeed(completed.seed) : completed.seed,
          snapshot,
        });
      }
      this.ctx.storage.transactionSync(() => {
        for (const id of input.twins) {
          const twin = twinById(id);
          this.#applyTwinMigrations(id);
          const entry = prepared.get(id);
          if (!entry) throw new Error(`no seed prepared for ${id}`);
          twin.boot(this.#db, entry.boot, this.#clock);
          saveSnapshotText(this.#db, id, entry.snapshot);
        }
        this.#saveMeta(ready);
        this.#setTimer("lifetime", input.expiresAt);
        this.#setTimer("idle", Date.now() + input.idleSeconds * 1000);
      });
    } catch (err) {
      console.error("sandbox boot failed", input.sessionId, err);
      this.#saveMeta({ ...meta, state: "failed", closedAt: Date.now(), closeReason: "boot_failed" });
      await this.#mirror();
      return { ok: false, code: "boot_failed", message: err instanceof Error ? err.message : String(err) };
    }
    await this.ctx.storage.setAlarm(Math.min(input.expiresAt, Date.now() + input.idleSeconds * 1000));
    await this.#mirror();
    return { ok: true, meta: ready };
  }

  /**
   * Serves one twin call and records it on the tape: in the transaction of the state it changed,
   * or, for a call that wrote nothing, just after its answer (see pendingTape).
   */
  async twinCall(twinId: TwinId, sent: TwinRequest): Promise<TwinResponse> {
    const twin = twinById(twinId);
    const meta = this.#meta;
    if (!meta?.twins.includes(twinId)) return twin.errors.unauthorized("Bad credentials");
    if (!isOpen(meta.state) || Date.now() >= meta.expiresAt) {
      if (isOpen(meta.state)) await this.close("expired", "lifetime");
      return twin.errors.gone("This sandbox has closed; its twins no longer answer.");
    }
    if (meta.frozenAt) return twin.errors.gone("This sandbox is being finalized; its twins no longer answer.");
    // What the twin must compute asynchronously (parsing a message) happens outside the transaction.
    const req = twin.prepare ? await twin.prepare(sent, this.#worldReader) : sent;
    const firstCall = meta.state === "ready";
    const twinFor = (id: string) => (isTwinId(id) && meta.twins.includes(id) ? twinById(id) : undefined);
    let response: TwinResponse;
    let seq: number;
    // Rows deferred before this call (during `prepare` too) are stored before its own: with no
    // await between here and its transaction, no stored row ever follows one still in memory.
    this.#flushTape();
    const host = { egress: this.#egress, savepoint: this.#savepoint };
    const serve = () => dispatch(twin, this.#db, this.#clock, req, { sessionId: meta.sessionId, seq: this.#nextSeq }, twinFor, host);
    try {
      ({ response, seq } =
        (!firstCall && readsOnly(twin, req) && this.#answerReading(serve)) ||
        this.ctx.storage.transactionSync(() => {
          const at = this.#clock.now();
          const writesBefore = this.#db.rowsWritten;
          const result = serve();
          // A refused call changes nothing, even if the handler wrote before it refused.
          if (result.response.status >= 400 && result.tape.mutated && !twin.keepsWrites?.(result.response))
            throw new RefusedCall(result, at);
          // The first call also moves the sandbox to running, a write of its own.
          const wroteNothing = this.#db.rowsWritten === writesBefore && meta.state !== "ready";
          const seq = this.#recordCall(at, result.tape, wroteNothing ? "after answer" : "now");
          return { response: result.response, seq };
        }));
    } catch (err) {
      if (err instanceof RefusedCall) {
        response = err.result.response;
        seq = this.ctx.storage.transactionSync(() => {
          // The rollback also undid the deliveries due before this call and its place in their
          // count; the call is still a taped call, so both happen again, outside its own writes.
          fireDue(this.#db, this.#clock, twinFor, true, this.#savepoint);
          return this.#recordCall(err.at, { ...err.result.tape, mutated: false });
        });
      } else {
        ({ response, seq } = this.#failedCall(twinId, req, err));
      }
    }
    if (firstCall) this.ctx.waitUntil(this.#mirror());
    if ((response.status < 400 || twin.keepsWrites?.(response)) && hasPendingWebhooks(this.#db)) this.ctx.waitUntil(this.#sendWebhooks());
    return twin.decorate ? twin.decorate(response, seq) : response;
  }

  /**
   * A call that only reads, served without the transaction a write needs (its savepoint was about
   * 25 µs of a point read's 0.25 ms over the floor). Undefined when it tried to write after all:
   * the guard refused that statement before it ran, so the caller serves it again in a transaction.
   * A taped read writes its tape row after the answer, as inside a transaction.
   */
  #answerReading(serve: () => DispatchResult): { response: TwinResponse; seq: number } | undefined {
    const at = this.#clock.now();
    const result = this.#db.readingOnly(serve);
    return result && { response: result.response, seq: this.#recordCall(at, result.tape, "after answer") };
  }

  /**
   * Tapes a call the platform refused before the twin saw it (an MCP tool call whose arguments
   * miss the tool's schema), so the grader sees every attempt. Nothing in the world changes.
   */
  async tapeRefusal(twinId: TwinId, req: TwinRequest, response: TwinResponse, operation: string): Promise<void> {
    const meta = this.#meta;
    if (!meta?.twins.includes(twinId) || !isOpen(meta.state) || meta.frozenAt || Date.now() >= meta.expiresAt) return;
    this.#flushTape();
    this.ctx.storage.transactionSync(() =>
      this.#recordCall(this.#clock.now(), {
        ...requestEntry(twinById(twinId), req),
        status: response.status,
        responseBody: response.body,
        mutated: false,
        fidelity: "supported",
        operation,
      }),
    );
  }

  /** Sends queued webhooks: one queue per endpoint, so a delivery is never sent twice at once (outbox.ts). */
  #sendWebhooks(): Promise<void> {
    const meta = this.#meta;
    if (!meta) return Promise.resolve();
    return flushOutbox(this.#db, {
      twinFor: (id) => (isTwinId(id) && meta.twins.includes(id) ? twinById(id) : undefined),
      egress: (url) => checkEgress(url, this.#egress),
    });
  }

  #failedCall(twinId: TwinId, req: TwinRequest, err: unknown): { response: TwinResponse; seq: number } {
    // The transaction rolled back the twin's writes; the failed call is still taped.
    console.error("twin handler failed", twinId, req.method, req.path, err);
    const response = twinById(twinId).errors.internal("The twin failed to answer this call.");
    const seq = this.ctx.storage.transactionSync(() =>
      this.#recordCall(this.#clock.now(), {
        ...requestEntry(twinById(twinId), req),
        status: response.status,
        responseBody: response.body,
        mutated: false,
        fidelity: "supported",
        operation: "error",
      }),
    );
    return { response, seq };
  }

  /**
   * Rows of calls that wrote nothing, answered but not yet stored. Whatever reads the tape or
   * tapes another call stores them first (flushTape), so `seq` stays gap-free and in order; a
   * timer stores them as soon as the answer has left. A read so answers without waiting for the
   * row's redaction, insert and commit.
   */
  #pendingTape: { seq: number; entry: TapeEntry }[] = [];

  /**
   * Stores the pending rows, oldest first, each leaving memory once stored. No explicit
   * transaction: the turn's implicit one commits them together, and a second savepoint per read
   * cost throughput with 50 sandboxes busy.
   */
  #flushTape(): void {
    while (this.#pendingTape.length) {
      const row = this.#pendingTape[0];
      appendTape(this.#db, row.seq, row.entry);
      this.#pendingTape.shift();
    }
  }

  #flushTapeLogged(): void {
    try {
      this.#flushTape();
    } catch (err) {
      // The rows stay pending: the next call or tape read stores them or fails with this error.
      console.error("deferred tape rows could not be stored", this.#meta?.sessionId, err);
    }
  }

  /**
   * Gives a call its `seq` and tapes it: `now`, in the caller's transaction, or `after answer`,
   * for a call that wrote nothing (see pendingTape).
   */
  #recordCall(at: number, entry: Omit<TapeEntry, "at">, when: "now" | "after answer" = "now"): number {
    const meta = this.#meta;
    // Calls reach the tape only through twinCall, which has checked the sandbox exists.
    if (!meta) throw new Error("recordCall on a sandbox that was never provisioned");
    const seq = this.#nextSeq;
    if (when === "now") appendTape(this.#db, seq, { ...entry, at });
    else {
      if (this.#pendingTape.length === 0) setTimeout(() => this.#flushTapeLogged(), 0);
      this.#pendingTape.push({ seq, entry: { ...entry, at } });
    }
    this.#nextSeq = seq + 1;
    // The meta row is rewritten only when the state changes (the first call); the time of the last
    // call lives in memory, and the tape's last row restores it after a restart, so a call writes
    // its tape row and nothing else. The stored idle timer is a lower bound the alarm brings up to
    // the last call (catchUpIdle): rewriting it on every call was a tenth of a point read.
    if (meta.state === "ready") this.#saveMeta({ ...meta, state: "running", lastRequestAt: at });
    else meta.lastRequestAt = at;
    return seq;
  }

  /** The sandbox-level endpoints under each twin: /_pome/state, /_pome/events, /_pome/health. */
  async pome(twinId: TwinId, what: "state" | "events" | "health", query: string): Promise<TwinResponse> {
    this.#flushTape();
    const meta = this.#meta;
    const twin = twinById(twinId);
    const json = (status: number, body: string, headers: Record<string, string> = {}): TwinResponse => ({
      status,
      headers: { "content-type": "application/json; charset=utf-8", ...headers },
      body,
    });
    if (!meta?.twins.includes(twinId)) return twin.errors.unauthorized("Bad credentials");
    if (what === "health") {
      return json(
        200,
        JSON.stringify({
          ok: isOpen(meta.state) && !meta.frozenAt,
          twin: twinId,
          session_id: meta.sessionId,
          state: meta.state,
          expires_at: new Date(meta.expiresAt).toISOString(),
          tape_length: this.#nextSeq - 1,
        }),
      );
    }
    if (what === "state") {
      // Read once, so every page is of the same moment; the rest waits here for statePage().
      const pages = textPages(this.#exportedState(twinId), STATE_PAGE_CHARS);
      if (pages.length === 1) return json(200, pages[0]);
      return json(200, pages[0], { [STATE_PAGES_HEADER]: `${this.#holdState(pages)} ${pages.length}` });
    }
    const params = new URLSearchParams(query);
    const after = Number(params.get("after_seq") ?? params.get("since") ?? 0) || 0;
    const limit = Math.min(EVENTS_PAGE_ROWS, Math.max(1, Number(params.get("limit")) || EVENTS_PAGE_ROWS));
    const scope = params.get("all_twins") === "true" ? undefined : twinId;
    const page = tapePage(this.#db, { afterSeq: after, twin: scope, maxRows: limit, maxChars: EVENTS_PAGE_CHARS });
    // The body stays the array it always was; the cursor to the next page travels in a header.
    return json(200, `[${page.rows.join(",")}]`, page.more ? { "x-pome-next-after-seq": String(page.lastSeq) } : {});
  }

  /** A twin's world as /_pome/state and state_final.<twin>.json hold it: its export, redacted. */
  #exportedState(twinId: TwinId): string {
    return JSON.stringify(redactValue(twinById(twinId).exportState(this.#db)));
  }

  /** States read for /_pome/state and larger than one page, by hold id, until their last page is read. */
  readonly #heldStates = new Map<string, { pages: string[]; expiresAt: number }>();

  #holdState(pages: string[]): string {
    const now = Date.now();
    for (const [id, held] of this.#heldStates) if (held.expiresAt <= now) this.#heldStates.delete(id);
    // A Map iterates in insertion order: the first key is the oldest hold.
    for (const id of this.#heldStates.keys()) if (this.#heldStates.size >= MAX_HELD_STATES) this.#heldStates.delete(id);
    const id = crypto.randomUUID();
    this.#heldStates.set(id, { pages, expiresAt: now + HELD_STATE_MS });
    return id;
  }

  /**
   * Page `index` (from 1; page 0 came with pome()) of a held state; null when the hold is unknown
   * or expired (the Sandbox restarted, or nobody read on). The last page releases the hold.
   */
  async statePage(holdId: string, index: number): Promise<string | null> {
    const held = this.#heldStates.get(holdId);
    if (!held || held.expiresAt <= Date.now()) {
      this.#heldStates.delete(holdId);
      return null;
    }
    const page = held.pages[index];
    if (page === undefined) return null;
    if (index === held.pages.length - 1) this.#heldStates.delete(holdId);
    else held.expiresAt = Date.now() + HELD_STATE_MS;
    return page;
  }

  /** Lets a held state go before its last page: its reader went away. */
  async releaseState(holdId: string): Promise<void> {
    this.#heldStates.delete(holdId);
  }

  async describe(): Promise<Outcome<{ meta: SandboxMeta; tapeLength: number }>> {
    if (!this.#meta) return { ok: false, code: "not_found", message: "no such sandbox" };
    return { ok: true, meta: this.#meta, tapeLength: this.#nextSeq - 1 };
  }

  /** Resets the idle timer only; nothing extends the lifetime. */
  async heartbeat(): Promise<Outcome> {
    const meta = this.#meta;
    if (!meta) return { ok: false, code: "not_found", message: "no such sandbox" };
    if (!isOpen(meta.state) || Date.now() >= meta.expiresAt) return { ok: false, code: "closed", message: "sandbox closed" };
    this.#setTimer("idle", Date.now() + meta.idleSeconds * 1000);
    return { ok: true };
  }

  /**
   * Finalize's first step: the twins stop answering so the graded tape is the whole tape, but the
   * sandbox stays open (and finalizable) until the run is written and close() is called.
   */
  async freeze(): Promise<Outcome<{ meta: SandboxMeta }>> {
    const meta = this.#meta;
    if (!meta) return { ok: false, code: "not_found", message: "no such sandbox" };
    if (!isOpen(meta.state) || meta.frozenAt) return { ok: true, meta };
    this.#saveMeta({ ...meta, frozenAt: Date.now() });
    return { ok: true, meta: this.#meta ?? meta };
  }

  /** Everything grading needs, written straight to R2 from live storage, page by page. */
  async exportEvidence(): Promise<Outcome<ExportedEvidence>> {
    this.#flushTape();
    const meta = this.#meta;
    if (!meta) return { ok: false, code: "not_found", message: "no such sandbox" };
    const keys = await this.#writeEvidence(meta);
    return { ok: true, meta, tapeLength: this.#nextSeq - 1, keys };
  }

  /** The world each twin booted with, for grading from uploaded blobs that carry no seed. */
  async initialStates(): Promise<Partial<Record<TwinId, unknown>>> {
    return this.#meta ? readSnapshots(this.#db, this.#meta.twins) : {};
  }

  /**
   * Closes the sandbox: `done` after finalize, `expired` at the end of its life, on idle, or on a
   * confirmed discard. Expiry archives the tape and final state to R2 first: nothing is lost.
   */
  async close(state: "done" | "expired", reason: string): Promise<Outcome<{ meta: SandboxMeta }>> {
    this.#flushTape();
    const meta = this.#meta;
    if (!meta) return { ok: false, code: "not_found", message: "no such sandbox" };
    if (!isOpen(meta.state)) return { ok: true, meta };
    let archived = meta.archived;
    if (state === "expired") {
      await this.#archive(meta);
      archived = true;
    }
    const closed: SandboxMeta = { ...meta, state, closedAt: Date.now(), closeReason: reason, archived };
    this.#saveMeta(closed);
    // A closed sandbox has no lifetime or idle left.
    this.#db.run("DELETE FROM _timers WHERE name IN ('lifetime', 'idle')");
    await this.#rearm();
    await this.#mirror();
    return { ok: true, meta: closed };
  }

  async #archive(meta: SandboxMeta): Promise<void> {
    await this.#writeEvidence(meta);
  }

  #writeEvidence(meta: SandboxMeta): Promise<string[]> {
    const db = this.#db;
    const snapshots = readSnapshots(db, meta.twins);
    return writeEvidence(this.env.EVIDENCE, {
      teamId: meta.teamId,
      sessionId: meta.sessionId,
      *tapeLines() {
        for (let after = 0, more = true; more; ) {
          const page = tapePage(db, { afterSeq: after, maxRows: 1000, maxChars: EXPORT_PAGE_CHARS });
          if (page.rows.length) yield `${page.rows.join("\n")}\n`;
          ({ lastSeq: after, more } = page);
        }
      },
      // Each state is serialized when its turn comes and encoded page by page.
      states: [
        ...Object.entries(snapshots).map(([id, state]) => ({
          name: `state_initial.${id}.json`,
          pieces: () => textPages(JSON.stringify(state), EXPORT_PAGE_CHARS),
        })),
        ...meta.twins.map((id) => ({
          name: `state_final.${id}.json`,
          pieces: () => textPages(this.#exportedState(id), EXPORT_PAGE_CHARS),
        })),
      ],
    });
  }

  /** Copies the sandbox's state into the D1 index that listing and quota read. */
  async #mirror(): Promise<void> {
    const m = this.#meta;
    if (!m) return;
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    await this.env.DB.prepare("UPDATE sandboxes SET state = ?, ready_at = ?, closed_at = ? WHERE id = ?")
      .bind(m.state, iso(m.readyAt), iso(m.closedAt), m.sessionId)
      .run();
  }

  /** The benchmark floor: the cheapest answer a Durable Object can give through the router. */
  async benchFloor(): Promise<TwinResponse> {
    return BENCH_FLOOR_BODY;
  }

  /**
   * One alarm, two named timers: `lifetime` and `idle` close the sandbox as expired. Idempotent: each step re-reads the timers it acts on, and
   * a throw leaves them in place for the runtime's retry of the alarm.
   */
  override async alarm(): Promise<void> {
    if (!this.#meta) return;
    const meta = this.#meta;
    if (meta && isOpen(meta.state)) {
      this.#catchUpIdle(meta);
      const closing = this.#db.one<{ name: string }>(
        "SELECT name FROM _timers WHERE name IN ('lifetime', 'idle') AND due_at <= ? ORDER BY due_at LIMIT 1",
        Date.now(),
      );
      if (closing) await this.close("expired", closing.name);
    }
    // The idle timer moves with every call without touching the alarm; re-arm at the earliest.
    await this.#rearm();
    // A retried alarm finds the state already closed; copying it again makes the D1 index converge.
    await this.#mirror();
  }
}
