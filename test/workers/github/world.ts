// A GitHub world inside a real Durable Object's SQLite, without HTTP: for unit tests of the
// state functions, the pure round trip, and counting the rows a call reads.
import { env, runInDurableObject } from "cloudflare:test";
import { dispatch } from "../../../durable-objects/dispatch";
import { Db, applyMigrations } from "../../../durable-objects/sql";
import { githubTwin } from "../../../durable-objects/twins/github";
import type { GithubSeed } from "../../../durable-objects/twins/github/seed";
import type { Clock } from "../../../durable-objects/twins/types";

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface World {
  db: Db;
  seed: GithubSeed;
  clock: Clock;
  /** Rows SQLite has read through `db` so far: the cost of the calls made. */
  rowsRead(): number;
  call(method: string, path: string, opts?: { body?: unknown; query?: string; accept?: string }): Answer;
  /** Rows one call reads. */
  cost(method: string, path: string, opts?: { body?: unknown; query?: string }): number;
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

export async function inWorld<T>(rawSeed: unknown, fn: (w: World) => T | Promise<T>): Promise<T> {
  const parsed = githubTwin.parseSeed(rawSeed);
  if (!parsed.ok) throw new Error(`invalid seed: ${JSON.stringify(parsed.issues)}`);
  const seed = parsed.seed;
  const stub = env.SANDBOX.get(env.SANDBOX.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    applyMigrations(state.storage.sql, githubTwin.migrations.map((sql, i) => ({ name: `github_${String(i).padStart(4, "0")}`, sql })));
    const counting = countingSql(state.storage.sql);
    const db = new Db(counting.sql);
    const clock: Clock = { now: () => Date.now() };
    githubTwin.boot(db, seed, clock);
    const call: World["call"] = (method, path, opts = {}) => {
      const { response } = dispatch(
        githubTwin,
        db,
        clock,
        {
          method,
          path,
          query: opts.query ?? "",
          headers: { accept: opts.accept ?? "application/vnd.github.v3+json" },
          body: opts.body === undefined ? "" : JSON.stringify(opts.body),
          baseUrl: "http://twin.test/github/s/ses_unit",
          transport: "rest",
        },
        "ses_unit",
      );
      const json = response.headers["content-type"]?.startsWith("application/json");
      return { status: response.status, headers: response.headers, body: json && response.body ? (JSON.parse(response.body) as unknown) : response.body };
    };
    const world: World = {
      db,
      seed,
      clock,
      rowsRead: counting.rowsRead,
      call,
      cost(method, path, opts) {
        const before = counting.rowsRead();
        const res = call(method, path, opts);
        if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
        return counting.rowsRead() - before;
      },
    };
    return fn(world);
  });
}
