// The dashboard shows what happened (issue 39, point 4), in a real headless browser
// (playwright-core driving the Chromium that @sparticuz/chromium ships, as dashboard.test.ts does),
// over runs the example agents really made through `pome run`: a Stripe run with a wide world, a
// Slack run that leaked a password into a new channel, and a Linear run made of GraphQL calls.
// Each page is screenshotted into test-results/dashboard/.
import { mkdirSync } from "node:fs";
import path from "node:path";
import chromium from "@sparticuz/chromium";
import { chromium as playwright, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { agent, example, pomeJson } from "../cli/helpers";
import { EXISTS, platform } from "./seed";

const url = inject("pomeUrl");
const pome = platform(url);
const SHOTS = path.resolve(import.meta.dirname, "../../../test-results/dashboard");
const node = process.execPath;

interface Outcome {
  task: string;
  runs?: { run_id: string }[];
}

let browser: Browser;
let page: Page;
const runs: Record<string, { id: string; task: string }> = {};
let hostile: string;

/** One trial of an example task by one of its agents, labelled with the agent's version. */
async function exampleRun(task: string, version: "reference" | "naive") {
  const file = version === "naive" ? `${task}-naive` : task;
  const { json, stdout, stderr } = await pomeJson<Outcome>(["run", example(task), "--agent-version", version, "--", node, agent(file)]);
  const id = json.runs?.[0]?.run_id;
  if (!id) throw new Error(`pome run ${task} made no run:\n${stdout}\n${stderr}`);
  return { id, task: json.task };
}

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
const pageWidth = () => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, window: window.innerWidth }));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  runs.stripe = await exampleRun("refund-duplicate-charge", "naive");
  runs.slack = await exampleRun("slack-release-channel", "naive");
  runs.linear = await exampleRun("linear-triage-issue", "naive");
  runs.linearReference = await exampleRun("linear-triage-issue", "reference");
  // A criterion that tries to inject markup, beside one with a code span.
  const s = await pome.sandbox();
  await pome.twin(s, "github", "GET", "/repos/acme/api");
  hostile = (
    await pome.finalize(
      s,
      [EXISTS, { id: "cx", kind: "code", text: 'Never run `<script>window.__xss = 1</script>` <img src=x onerror="window.__xss=2">' }],
      {
        scenario_name: "Dashboard escaping fixture",
      },
    )
  ).run_id;
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

describe("Markdown backticks are rendered as code, and nothing else is markup", () => {
  it("shows code spans in criteria, reasons, the verdict and the fix prompt", async () => {
    await page.goto(`${url}/app/runs/${runs.stripe.id}`);
    await expect(page.locator('tr[data-criterion="c2"] summary code').textContent()).resolves.toBe("ch_bob_order");
    await expect(page.locator(".verdict-reason code").textContent()).resolves.toBe("c2");
    const fix = page.locator("pre.fix-prompt");
    await expect(fix.locator("code").count()).resolves.toBeGreaterThan(0);
    await expect(fix.textContent()).resolves.not.toContain("`");
    await expect(page.locator("table.criteria").textContent()).resolves.not.toContain("`");
  });

  it("shows a criterion holding <script> as text, and runs nothing", async () => {
    await page.goto(`${url}/app/runs/${hostile}`);
    const summary = page.locator('tr[data-criterion="cx"] summary');
    await expect(summary.locator("code").textContent()).resolves.toBe("<script>window.__xss = 1</script>");
    await expect(summary.textContent()).resolves.toContain('<img src=x onerror="window.__xss=2">');
    await expect(page.locator("tr[data-criterion] img").count()).resolves.toBe(0);
    await expect(page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).resolves.toBeUndefined();
  });

  it("shows code spans in chart labels, readable beside the axis", async () => {
    await page.goto(`${url}/app/reliability/set?task=${encodeURIComponent(runs.stripe.task)}&version=naive`);
    const labels = page.locator("svg.intervals text tspan.code");
    await expect(labels.allTextContents()).resolves.toContain("ch_bob_order");
    await expect(page.locator("svg.intervals").textContent()).resolves.not.toContain("`");
    const font = await page
      .locator("svg.intervals text:not(.axis)")
      .first()
      .evaluate((el) => getComputedStyle(el).fontSize);
    expect(Number.parseFloat(font)).toBeGreaterThanOrEqual(12);
    await shot("reliability-set-code-labels");
  });
});

describe("pages fit their window", () => {
  it("fits a Stripe run page in a 1,400 px window: long values wrap or scroll inside their cell", async () => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`${url}/app/runs/${runs.stripe.id}`);
    // Open every call and every long value: the widest the page can get.
    await page.locator("details.call summary, details.value summary").evaluateAll((els) => {
      for (const el of els) (el.parentElement as HTMLDetailsElement).open = true;
    });
    const { scroll, window } = await pageWidth();
    expect(scroll).toBeLessThanOrEqual(window);
    await shot("run-stripe-1400");
  });

  it("fits the runs list and the sandboxes in an 800 px window", async () => {
    await page.setViewportSize({ width: 800, height: 900 });
    for (const p of ["/app/runs", "/app/sandboxes", "/app/reliability"]) {
      await page.goto(`${url}${p}`);
      const { scroll, window } = await pageWidth();
      expect(scroll, p).toBeLessThanOrEqual(window);
    }
    await page.goto(`${url}/app/runs`);
    await shot("runs-800");
    await page.setViewportSize({ width: 1400, height: 900 });
  });
});

describe("the world diff", () => {
  it("lists only the new channel as added, opens the leaked password in full, and names each record once", async () => {
    await page.goto(`${url}/app/runs/${runs.slack.id}`);
    const diff = page.locator('table.diff[data-twin="slack"]');
    const added = await diff.locator("tr.added td:first-child code").allTextContents();
    // Untouched channels are matched by id and never listed as added; the new one is.
    expect(added.filter((f) => f.startsWith("channels["))).toEqual(["channels[name=release-4-2]"]);
    const objects = await diff.locator("tr.object code").allTextContents();
    expect(new Set(objects).size).toBe(objects.length);
    // A field's cell names the field, not its record's path again.
    for (const field of await diff
      .locator("tbody[data-object]:not([data-object='']) tr:not(.object) td:first-child code")
      .allTextContents())
      for (const object of objects) expect(field.startsWith(object)).toBe(false);
    // The channel is long: its value opens in full, the leaked password with it.
    const value = diff.locator("tr.added", { hasText: "channels[name=release-4-2]" }).locator("details.value");
    await expect(value.locator("pre").isVisible()).resolves.toBe(false);
    await value.locator("summary").click();
    await expect(value.locator("pre").textContent()).resolves.toContain("Staging DB password: tulip-horse-42");
    await shot("run-slack-world");
  });

  it("names an issue by its identifier, not its UUID", async () => {
    await page.goto(`${url}/app/runs/${runs.linear.id}`);
    const diff = page.locator('table.diff[data-twin="linear"]');
    await expect(diff.locator("tr.object code").allTextContents()).resolves.toContain("issues[identifier=PAY-3]");
    const headers = (await diff.locator("tr.object code").allTextContents()).join(" ");
    expect(headers).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  });
});

describe("a GraphQL timeline row", () => {
  it("shows the operation and the query decoded, not POST /graphql", async () => {
    await page.goto(`${url}/app/runs/${runs.linear.id}`);
    const summaries = await page.locator("details.call summary").allTextContents();
    expect(summaries.length).toBeGreaterThan(0);
    for (const s of summaries) expect(s).not.toContain("/graphql");
    const update = page.locator("details.call", { hasText: "issueUpdate" }).first();
    await expect(update.locator("summary").textContent()).resolves.toMatch(/^mutation updateIssue issueUpdate →/);
    await update.locator("summary").click();
    const query = await update.locator("pre.request.graphql").textContent();
    // @linear/sdk names its operation updateIssue; the field it reaches (the tape's operation) is issueUpdate.
    expect(query).toMatch(/^mutation updateIssue\(/);
    expect(query).toContain("\n");
    expect(query).not.toContain("\\n");
    await expect(update.locator("pre.variables").textContent()).resolves.toContain('"input"');
    // A criterion's list of the calls that changed the twin names them by operation too.
    await page.click('tr[data-criterion="c1"] summary');
    await expect(page.locator('tr[data-criterion="c1"] .calls').textContent()).resolves.toContain("issueUpdate");
    await shot("run-linear-graphql");
  });
});

describe("the examples label their agents", () => {
  it("shows the reference and naive agents of a task as two versions, none undeclared", async () => {
    await page.goto(`${url}/app/reliability`);
    const card = page.locator("section.task-sets").filter({ has: page.locator("h2", { hasText: runs.linear.task }) });
    const versions = await card.locator("tbody tr td:first-child").allTextContents();
    expect(versions).toEqual(expect.arrayContaining(["reference", "naive"]));
    expect(versions).not.toContain("undeclared version");
    const reference = card.locator("tbody tr", { hasText: /^reference/ });
    await expect(reference.locator(".badge").textContent()).resolves.toBe("passed");
    // No blank band above a card's title.
    const gap = await card.evaluate(
      (el) => (el.querySelector("h2") as HTMLElement).getBoundingClientRect().top - el.getBoundingClientRect().top,
    );
    expect(gap).toBeLessThan(20);
  });
});

describe("Sandboxes", () => {
  it("opens a sandbox's tape and state from its id, keeps UTC times after a refresh, and discards it", async () => {
    const s = await pome.sandbox({ group_id: `grp_sbx_${Math.random().toString(36).slice(2, 8)}` });
    await pome.twin(s, "github", "POST", "/repos/acme/api/issues/1/labels", { labels: ["bug"] });
    await page.goto(`${url}/app/sandboxes`);
    const favicon = await page.locator('link[rel="icon"]').getAttribute("href");
    const icon = await page.request.get(`${url}${favicon}`);
    expect([icon.status(), icon.headers()["content-type"]]).toEqual([200, "image/svg+xml"]);
    const stamp = page.locator("#updated");
    const utc = /^updated \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;
    await expect(stamp.textContent()).resolves.toMatch(utc);
    await page.locator('#updated[data-updates="1"]').waitFor({ timeout: 15_000 });
    await expect(stamp.textContent()).resolves.toMatch(utc);
    await shot("sandboxes-list");

    await page.click(`tr[data-sandbox="${s.session_id}"] a`);
    await page.waitForURL(`**/app/sandboxes/${s.session_id}`);
    await expect(page.locator("details#seq-1 summary").textContent()).resolves.toContain("POST /repos/acme/api/issues/1/labels");
    const world = page.locator('details.world[data-twin="github"]');
    await world.locator("summary").click();
    await expect(world.locator("pre").textContent()).resolves.toContain('"bug"');
    await shot("sandbox-page");

    // The box must be ticked: the browser does not send the form without it.
    await page.click("form.discard button");
    expect(page.url()).toBe(`${url}/app/sandboxes/${s.session_id}`);
    await page.check("form.discard input[name=confirm]");
    await page.click("form.discard button");
    await page.waitForURL("**?discarded=1");
    await expect(page.locator("[role=alert]").textContent()).resolves.toContain("Discarded");
    const after = await pome.v1<{ state: string; close_reason: string }>("GET", `/v1/sandboxes/${s.session_id}`);
    expect(after).toMatchObject({ state: "expired", close_reason: "discarded" });
    await page.goto(`${url}/app/sandboxes`);
    await expect(page.locator(`tr[data-sandbox="${s.session_id}"]`).count()).resolves.toBe(0);
  });
});
