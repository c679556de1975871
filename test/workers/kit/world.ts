// Any twin's world inside a real Durable Object's SQLite, without HTTP: for unit tests of a
// twin's state functions, the pure round trip, and counting the rows a call reads.
import { env, runInDurableObject } from "cloudflare:test";
import { dispatch } from "../../../durable-objects/dispatch";
import { Db, applyMigrations, twinMigrationList } from "../../../durable-objects/sql";
import { normalizeSeed } from "../../../durable-objects/twins/normalize";
import type { Clock, TwinDefinition, TwinRequest } from "../../../durable-objects/twins/types";

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface CallOptions {
  body?: unknown;
  /** The body as sent, for form-encoded or other non-JSON requests. */
  rawBody?: string;
  query?: string;
  headers?: Record<string, string>;
  transport?: TwinRequest["transport"];
}

export interface World<Seed> {
  db: Db;
  seed: Seed;
  clock: Clock;
  /** Rows SQLite has read through `db` so far: the cost of the calls made. */
  rowsRead(): number;
  call(method: string, path: string, opts?: CallOptions): Answer;
  /** Rows one call reads; throws when the call is refused. */
  cost(method: string, path: string, opts?: CallOptions): number;
  exportState(): Seed;
}

/** Wraps the storage so every cursor handed to Db can be asked how many rows it read. */
function countingSql(sql: SqlStorage) {
  const cursors: { rowsRead: number }[] = [];
  const wrapped: Pick<SqlStorage, "exec"> = {
    exec<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]) {
      const cursor = sql.exec<T>(query, ...bindings);
      cursors.push(cursor);
      return cursor;
    },
  };
  // Db only ever calls exec, so the narrowed object stands in for the whole storage.
  return { sql: wrapped as SqlStorage, rowsRead: () => cursors.reduce((n, c) => n + c.rowsRead, 0) };
}

const BASE_URL = "http://twin.test";

export async function inTwinWorld<Seed, T>(
  twin: TwinDefinition<Seed>,
  rawSeed: unknown,
  fn: (w: World<Seed>) => T | Promise<T>,
  opts: { now?: () => number } = {},
): Promise<T> {
  const clock: Clock = { now: opts.now ?? (() => Date.now()) };
  // Normalized as the sandbox does it, with the world's clock; then what the twin computes
  // asynchronously before boot (parsing raw mail) happens here too.
  const parsed = await normalizeSeed(twin, rawSeed, clock);
  if (!parsed.ok) throw new Error(`invalid seed: ${JSON.stringify(parsed.issues)}`);
  const seed = parsed.seed;
  const booted = twin.prepareSeed ? await twin.prepareSeed(seed) : seed;
  const stub = env.SANDBOX.get(env.SANDBOX.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    // The Sandbox's constructor already applied the platform's list (timed rows, outbox included).
    const own = twinMigrationList(twin);
    applyMigrations(state.storage.sql, own.list, own.migrations);
    const counting = countingSql(state.storage.sql);
    const db = new Db(counting.sql);
    twin.boot(db, booted, clock);
    let calls = 0;
    const call: World<Seed>["call"] = (method, path, o = {}) => {
      const { response } = dispatch(
        twin,
        db,
        clock,
        {
          method,
          path,
          query: o.query ?? "",
          headers: { accept: "application/json", ...(o.body !== undefined ? { "content-type": "application/json" } : {}), ...o.headers },
          body: o.rawBody ?? (o.body === undefined ? "" : JSON.stringify(o.body)),
          baseUrl: `${BASE_URL}/${twin.id}/s/ses_unit`,
          transport: o.transport ?? twin.transportFor?.(path) ?? "rest",
        },
        { sessionId: "ses_unit", seq: ++calls },
      );
      const json = response.headers["content-type"]?.startsWith("application/json");
      return {
        status: response.status,
        headers: response.headers,
        body: json && response.body ? (JSON.parse(response.body) as unknown) : response.body,
      };
    };
    const world: World<Seed> = {
      db,
      seed,
      clock,
      rowsRead: counting.rowsRead,
      call,
      cost(method, path, o) {
        const before = counting.rowsRead();
        const res = call(method, path, o);
        if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
        return counting.rowsRead() - before;
      },
      exportState: () => twin.exportState(db),
    };
    return fn(world);
  });
}
