// The Run page of a long tape pages it: 100 calls a page, the first view indexing the tape once and
// later views reading one page's range of it. How fast that is (the 100 ms budget of Worker time)
// is a figure of `npm run bench` (bench/sections/dashboard.mjs), not a timed test.
//
// This file is JavaScript because it runs the Worker's own page modules in Node: the Node
// typecheck does not know the Workers runtime's types those modules reach (SqlStorage).
import { beforeAll, describe, expect, inject, it } from "vitest";
import { buildTimelineIndex, viewOf } from "../../../workers/dashboard/tape-view";
import { diffWorld } from "../../../workers/dashboard/world-diff";
import { runPage } from "../../../workers/routes/app/run-page";
import { LABELLED, NO_UNSUPPORTED, platform } from "./seed";

const url = inject("pomeUrl");
const pome = platform(url);
const ROWS = 250;

/** @type {import("./seed").Finalized} */
let run;

beforeAll(async () => {
  const s = await pome.sandbox({ group_id: `grp_paging_${Math.random().toString(36).slice(2, 8)}` });
  let next = 0;
  // A few calls in flight at once; the sandbox still tapes them one by one, gap-free.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < ROWS) {
        const i = next++;
        if (i % 10 === 3) await pome.twin(s, "github", "POST", "/repos/acme/api/issues/1/comments", { body: `Looked again (${i})` });
        else await pome.twin(s, "github", "GET", "/repos/acme/api/issues/1");
      }
    }),
  );
  run = await pome.finalize(s, [LABELLED, NO_UNSUPPORTED], { scenario_name: "Two hundred and fifty calls" });
}, 120_000);

describe("the Run page of a long tape", () => {
  it("serves it 100 calls a page, the last page the remainder", async () => {
    const first = await fetch(`${url}/app/runs/${run.run_id}`);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain(`${ROWS} calls in`);
    for (const [page, calls] of [
      [1, 100],
      [2, 100],
      [3, 50],
    ]) {
      const html = await (await fetch(`${url}/app/runs/${run.run_id}?page=${page}`)).text();
      expect(html).toContain(`Page ${page} of 3`);
      expect(html.match(/<details class="call/g)).toHaveLength(calls);
    }
  });

  it("renders a later page from the stored index and that page's range of the tape", async () => {
    const view = await (await fetch(`${url}/v1/runs/${run.run_id}`, { headers: { authorization: "Bearer pme_local_dev" } })).json();
    const download = async (/** @type {string} */ path) => {
      const res = await fetch(`${url}${path}`);
      expect(res.status).toBe(200);
      return new Uint8Array(await res.arrayBuffer());
    };
    const [trace, seed, final] = await Promise.all([
      download(`/app/runs/${run.run_id}/download/trace`),
      download(`/app/runs/${run.run_id}/download/state_initial/github`),
      download(`/app/runs/${run.run_id}/download/state_final/github`),
    ]);
    const text = (/** @type {Uint8Array} */ b) => new TextDecoder().decode(b);
    const index = JSON.parse(JSON.stringify(buildTimelineIndex(trace)));
    expect(index.total).toBe(ROWS);
    const range = index.pages[1];
    const tape = viewOf(index, 2, text(trace.subarray(range.offset, range.offset + range.length)));
    const world = [{ twin: "github", ...diffWorld(JSON.parse(text(seed)), JSON.parse(text(final))), missing: null }];
    const html = String(await runPage(view, tape, world));
    expect(html).toContain("Page 2 of 3");
    expect(html.match(/<details class="call/g)).toHaveLength(100);
  });
});
