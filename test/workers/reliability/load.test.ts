// Load: 50 sandboxes, 200 mixed calls each (reads, writes, refusals, unsupported paths), sent
// concurrently across sandboxes (`npm run test:load`; `npm test` runs the same test at 10 × 100). Every sandbox's tape is gap-free, holds exactly the calls sent,
// in order, with the status each client saw; its world agrees with its tape; and it finalizes.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { code, finalizeOk } from "../grading/run-helpers";
import { createSandbox, twinFetch, type CreatedSandbox } from "../helpers";

const FULL = env.LOAD_SCALE === "full";
const SANDBOXES = FULL ? 50 : 10;
const CALLS = FULL ? 200 : 100;

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

/** The i-th call of a sandbox's mix: deterministic, so a failure names the call. */
function callFor(i: number): Call {
  switch (i % 8) {
    case 0:
      return { method: "GET", path: "/repos/acme/api/issues/1" };
    case 1:
      return { method: "POST", path: "/repos/acme/api/issues/1/comments", body: { body: `load comment ${i}` } };
    case 2:
      return { method: "GET", path: "/repos/acme/api/issues?state=all&per_page=5" };
    case 3:
      return { method: "POST", path: "/repos/acme/api/issues", body: { title: `load issue ${i}` } };
    case 4:
      return { method: "GET", path: "/repos/acme/api/issues/999999" }; // 404
    case 5:
      return { method: "POST", path: "/repos/acme/api/issues", body: { title: 42 } }; // 422
    case 6:
      return { method: "GET", path: "/repos/acme/api/pages" }; // 501, taped unsupported
    default:
      return { method: "POST", path: "/repos/acme/api/issues/2/labels", body: { labels: [`load-${i % 3}`] } };
  }
}

async function drive(sandbox: CreatedSandbox): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const call = callFor(i);
    const res = await twinFetch(sandbox, call.path, {
      method: call.method,
      headers: { "content-type": "application/json" },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

async function fullTape(sandbox: CreatedSandbox) {
  const rows: { seq: number; status: number; method: string; path: string }[] = [];
  for (let after: string | null = "0"; after !== null; ) {
    const res = await twinFetch(sandbox, `/_pome/events?after_seq=${after}`);
    rows.push(...(await res.json<typeof rows>()));
    after = res.headers.get("x-pome-next-after-seq");
  }
  return rows;
}

describe(`${SANDBOXES} sandboxes × ${CALLS} mixed calls`, () => {
  it("keep every tape gap-free and exactly what each client saw, and every sandbox finalizes", { timeout: 240_000 }, async () => {
    const sandboxes = await Promise.all(Array.from({ length: SANDBOXES }, () => createSandbox()));
    const seen = await Promise.all(sandboxes.map(drive));
    await Promise.all(
      sandboxes.map(async (sandbox, s) => {
        const tape = await fullTape(sandbox);
        expect(tape.map((r) => r.seq)).toEqual(Array.from({ length: CALLS }, (_, i) => i + 1));
        expect(tape.map((r) => r.status)).toEqual(seen[s]);
        expect(tape.map((r) => r.path.split("?")[0])).toEqual(Array.from({ length: CALLS }, (_, i) => callFor(i).path.split("?")[0]));
        const comments = await (await twinFetch(sandbox, "/repos/acme/api/issues/1/comments?per_page=100")).json<{ body: string }[]>();
        const created = seen[s].filter((status, i) => i % 8 === 1 && status === 201).length;
        expect(comments.filter((c) => c.body.startsWith("load comment ")).length).toBe(created);
        const run = await finalizeOk(sandbox.session_id, [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })]);
        expect(run.criteria_results[0].status).toBe("passed");
      }),
    );
    const all = seen.flat();
    expect(all.length).toBe(SANDBOXES * CALLS);
    expect(all.filter((s) => s >= 500 && s !== 501)).toEqual([]);
  });
});
