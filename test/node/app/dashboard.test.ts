// The dashboard in a real headless browser (playwright-core driving the Chromium that
// @sparticuz/chromium ships inside its npm package; nothing is downloaded), against the running
// platform seeded with real runs. Each page is screenshotted into test-results/dashboard/.
import { mkdirSync } from "node:fs";
import path from "node:path";
import chromium from "@sparticuz/chromium";
import { chromium as playwright, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EXISTS, LABELLED, NO_UNSUPPORTED, platform, type Finalized } from "./seed";

const url = inject("pomeUrl");
const pome = platform(url);
const SHOTS = path.resolve(import.meta.dirname, "../../../test-results/dashboard");
const tag = Math.random().toString(36).slice(2, 8);
const TASK = `Dashboard browser fixture ${tag}`;
const BASELINE = `grp_base_${tag}`;
const RERUN = `grp_rerun_${tag}`;

let browser: Browser;
let page: Page;
const baselineRuns: Finalized[] = [];
const rerunRuns: Finalized[] = [];
let multiTwin: Finalized;

/** One trial: it labels issue #1, and the baseline's agent also calls an endpoint the twin lacks. */
async function trial(group: string, version: string, opts: { unsupported: boolean; baseline?: string }) {
  const s = await pome.sandbox({ group_id: group, agent_version: version });
  await pome.twin(s, "github", "GET", "/repos/acme/api");
  await pome.twin(s, "github", "POST", "/repos/acme/api/issues/1/labels", { labels: ["bug"] });
  if (opts.unsupported) await pome.twin(s, "github", "POST", "/repos/acme/api/pages", {});
  return pome.finalize(s, [LABELLED, NO_UNSUPPORTED, EXISTS], {
    scenario_name: TASK,
    agent_version: version,
    ...(opts.baseline ? { baseline_group_id: opts.baseline } : {}),
  });
}

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  for (let i = 0; i < 2; i++) baselineRuns.push(await trial(BASELINE, "v1", { unsupported: true }));
  for (let i = 0; i < 3; i++) rerunRuns.push(await trial(RERUN, "v2", { unsupported: false, baseline: BASELINE }));
  // A run on two twins at once: one lane each on the timeline.
  const s = await pome.sandbox({ twins: ["github", "slack"], group_id: `grp_multi_${tag}` });
  await pome.twin(s, "github", "GET", "/repos/acme/api/issues/1");
  await pome.twin(s, "github", "POST", "/repos/acme/api/issues/1/labels", { labels: ["bug"] });
  await pome.twin(s, "slack", "POST", "/api/chat.postMessage", { channel: "C1", text: "Labelled #1 as a bug" });
  multiTwin = await pome.finalize(s, [LABELLED, EXISTS, { id: "c4", kind: "model", text: "The agent told the channel what it did" }], {
    scenario_name: `${TASK} (two twins)`,
  });

  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("Runs", () => {
  it("lists runs newest first with score and verdict, and filters by task", async () => {
    await page.goto(`${url}/app/runs?task=${encodeURIComponent(TASK)}`);
    const ids = await page.locator("tr[data-run]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-run")));
    expect(ids).toEqual([...baselineRuns, ...rerunRuns].map((r) => r.run_id).reverse());
    const first = page.locator(`tr[data-run="${baselineRuns[0].run_id}"]`);
    await expect(first.locator("td.num").textContent()).resolves.toBe("50/100");
    await expect(first.locator(".badge").textContent()).resolves.toBe("failed");
    await expect(page.locator(`tr[data-run="${rerunRuns[0].run_id}"] .badge`).textContent()).resolves.toBe("passed");
    await shot("runs");
  });
});

describe("Run: run → criterion → tape row", () => {
  it("opens a two-twin run from the list, a criterion, and the call it links to", async () => {
    await page.goto(`${url}/app/runs`);
    await page.click(`a[href="/app/runs/${multiTwin.run_id}"]`);
    await page.waitForURL(`**/app/runs/${multiTwin.run_id}`);
    await expect(page.locator("h1").textContent()).resolves.toBe(`${TASK} (two twins)`);
    // One lane per twin, in the sandbox's order.
    await expect(page.locator("th.lane-head").allTextContents()).resolves.toEqual(["github", "slack"]);
    // The score: 1 of 1 evaluated passed; the seed-true and unjudged criteria are shown beside it.
    await expect(page.locator(".denominator").textContent()).resolves.toBe("1 of 1 evaluated criteria passed");
    await expect(page.locator(".excluded b").textContent()).resolves.toBe("Excluded from the denominator: 2");
    await expect(page.locator(".excluded .chips").textContent()).resolves.toContain("judge_unavailable");

    await page.click("#crit-c1 summary");
    const detail = page.locator("#crit-c1 .crit-detail");
    await detail.waitFor({ state: "visible" });
    await expect(detail.textContent()).resolves.toContain("github.issue-has-label");
    await expect(detail.textContent()).resolves.toContain("Calls that changed github (1)");
    await shot("run-criterion");

    await detail.locator(".calls a").first().click();
    await page.waitForURL("**#seq-2");
    const call = page.locator("details#seq-2");
    await expect(call.evaluate((el) => (el as HTMLDetailsElement).open)).resolves.toBe(true);
    await expect(call.locator("summary").textContent()).resolves.toContain("POST /repos/acme/api/issues/1/labels → 200");
    await expect(call.getAttribute("class")).resolves.toContain("mutated");
    await expect(call.locator("pre.request").textContent()).resolves.toContain('"bug"');
    await expect(call.locator("pre.response").textContent()).resolves.toContain('"name": "bug"');
    // The Slack call sits in the Slack lane, the third column.
    const slackCell = page
      .locator("tr.row")
      .filter({ has: page.locator("details#seq-3") })
      .locator("td")
      .nth(3);
    await expect(slackCell.locator("summary").textContent()).resolves.toContain("/api/chat.postMessage");
    // The world: the label the agent added, as a diff from the seed.
    // The issue is named once; the field that changed sits under it.
    const issue = page
      .locator('table.diff[data-twin="github"] tbody')
      .filter({ has: page.locator("tr.object", { hasText: "issues[number=1]" }) });
    await expect(issue.locator("tr.added td:first-child code").textContent()).resolves.toBe("labels");
    await shot("run-tape-row");
  });
});

describe("Reliability", () => {
  it("charts each version's pass rate, and a rerun group's pass^k, flaky criteria and flips against its baseline", async () => {
    await page.goto(`${url}/app/reliability`);
    const card = page.locator("section.task-sets").filter({ has: page.locator("h2", { hasText: new RegExp(`^${TASK}$`) }) });
    await expect(card.locator("svg.intervals g.interval").count()).resolves.toBe(2);
    await expect(card.locator("svg.intervals title").allTextContents()).resolves.toContain(
      "v2: 100% (95% interval 43.9%–100%) · 3/3 graded",
    );
    await shot("reliability");

    await card.locator("a", { hasText: "v2" }).first().click();
    await page.waitForURL("**/app/reliability/set?**");
    await page.click(`a[href="/app/reliability/groups/${RERUN}"]`);
    await page.waitForURL(`**/app/reliability/groups/${RERUN}`);
    await expect(page.locator(".pass-rate").textContent()).resolves.toBe("100%");
    // pass^k for k = 1…3, one point each, all 100% for 3 of 3.
    await expect(page.locator("svg.passk circle.point title").allTextContents()).resolves.toEqual([
      "pass^1 = 100%",
      "pass^2 = 100%",
      "pass^3 = 100%",
    ]);
    const flip = page.locator('table.flips tr[data-flip="failed→passed"]');
    await expect(flip.textContent()).resolves.toContain("No unsupported endpoint was called");
    // 0/2 against 3/3: with 3 passes among 5, the observed table has P = C(3,0)·C(2,2)/C(5,2) = 0.1 and
    // no other is as unlikely, so p = 0.1: within the noise.
    await expect(page.locator("p.change").textContent()).resolves.toContain("p = 0.100, within the noise of 2 against 3 trials");
    await shot("reliability-group");

    await page.click(`a[href="/app/reliability/groups/${BASELINE}"]`);
    await expect(page.locator(".pass-rate").textContent()).resolves.toBe("0%");
    await expect(page.locator("p.muted", { hasText: "reruns:" }).textContent()).resolves.toContain(RERUN);
  });
});

describe("Sandboxes", () => {
  it("shows open sandboxes with time left, and their call counts update live", async () => {
    const s = await pome.sandbox({ group_id: `grp_live_${tag}` });
    await page.goto(`${url}/app/sandboxes`);
    const row = page.locator(`tr[data-sandbox="${s.session_id}"]`);
    await expect(row.locator("td.calls").textContent()).resolves.toBe("0");
    await expect(row.locator(".countdown").first().textContent()).resolves.toMatch(/^(29|30):\d\d$/);
    for (let i = 0; i < 3; i++) await pome.twin(s, "github", "GET", "/repos/acme/api");
    // The page refreshes its rows by itself; wait for the row to show the new count.
    await row.locator("td.calls", { hasText: /^3$/ }).waitFor({ timeout: 15_000 });
    await shot("sandboxes");
    await pome.finalize(s, [EXISTS]);
  });
});

describe("the key form", () => {
  it("takes the key once, keeps it where page scripts cannot read it, and never in the URL", async () => {
    await page.goto(`${url}/app/login?next=/app/reliability`);
    await page.fill('input[name="key"]', "pme_local_dev");
    await shot("login");
    await page.click("form[action='/app/login'] button");
    await page.waitForURL("**/app/reliability");
    expect(page.url()).not.toContain("pme_");
    await expect(page.evaluate(() => document.cookie)).resolves.not.toContain("pme_");
    await expect(page.locator("header button").textContent()).resolves.toBe("Forget key");
    await page.click("header button");
    await page.waitForURL("**/app/runs");
  });
});
