// Issue 36, points 5 and 6 in a real browser (playwright-core driving the Chromium that
// @sparticuz/chromium ships, as dashboard.test.ts does): the dashboard works under its CSP with no
// violation, another site's form cannot sign a visitor in, and an uploaded report.html is a
// download, never a page of the platform's origin.
import { createServer, type Server } from "node:http";
import chromium from "@sparticuz/chromium";
import { chromium as playwright, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../server";
import { EXISTS, LABELLED, platform, type Finalized } from "./seed";

const url = inject("pomeUrl");
const pome = platform(url);

let browser: Browser;
let context: BrowserContext;
let page: Page;
let run: Finalized;
/** Every CSP violation and console error any page reported. */
const problems: string[] = [];

function watch(p: Page) {
  p.on("console", (msg) => {
    if (msg.type() === "error" || /Content Security Policy/i.test(msg.text())) problems.push(`${p.url()}: ${msg.text()}`);
  });
  p.on("pageerror", (err) => problems.push(`${p.url()}: ${err.message}`));
}

beforeAll(async () => {
  const s = await pome.sandbox();
  await pome.twin(s, "github", "GET", "/repos/acme/api");
  await pome.twin(s, "github", "POST", "/repos/acme/api/issues/1/labels", { labels: ["bug"] });
  run = await pome.finalize(s, [LABELLED, EXISTS], { scenario_name: "Hardening in the browser" });
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
  context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
  watch(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("the dashboard works under its CSP, with no violation", () => {
  it("signs in, shows every page, opens a tape row from its link and refreshes Sandboxes live, with external scripts only", async () => {
    await page.goto(`${url}/app/login?next=/app/runs`);
    await page.fill('input[name="key"]', "pme_local_dev");
    await page.click("form[action='/app/login'] button");
    await page.waitForURL("**/app/runs");
    for (const path of ["/app/runs", "/app/reliability", `/app/runs/${run.run_id}`]) {
      const res = await page.goto(`${url}${path}`);
      expect(res?.status(), path).toBe(200);
      // The stylesheet applied: it comes from /app/assets/ too.
      await expect(page.evaluate(() => getComputedStyle(document.body).margin)).resolves.toBe("0px");
    }
    // dashboard.js opens the <details> a #seq-N link points at.
    await page.goto(`${url}/app/runs/${run.run_id}#seq-2`);
    await expect(page.locator("details#seq-2").evaluate((el) => (el as HTMLDetailsElement).open)).resolves.toBe(true);
    // sandboxes.js refreshes the rows by itself.
    const s = await pome.sandbox();
    await page.goto(`${url}/app/sandboxes`);
    await page.locator('#updated[data-updates="1"]').waitFor({ timeout: 15_000 });
    await pome.finalize(s, [EXISTS]);
    expect(problems).toEqual([]);
  }, 60_000);

  it("blocks a script injected inline, as the CSP promises", async () => {
    const seen: string[] = [];
    const p = await context.newPage();
    p.on("console", (msg) => seen.push(msg.text()));
    await p.goto(`${url}/app/runs`);
    const ran = await p.evaluate(() => {
      const el = document.createElement("script");
      el.textContent = "window.__injected = true";
      document.body.append(el);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    expect(seen.join("\n")).toMatch(/Content Security Policy/);
    await p.close();
  });
});

describe("another site's form changes nothing", () => {
  let evil: Server;
  let evilUrl: string;

  beforeAll(async () => {
    // A page on another origin (another port of the same host: same-site, not same-origin).
    const port = await freePort();
    evil = createServer((_req, res) => {
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<form id="f" method="post" action="${url}/app/login"><input name="key" value="pme_local_dev"><input name="next" value="/app/runs"></form>`,
        );
    });
    await new Promise<void>((resolve) => evil.listen(port, "127.0.0.1", resolve));
    evilUrl = `http://127.0.0.1:${port}/`;
  });
  afterAll(() => new Promise((r) => evil.close(r)));

  it("refuses a login form posted from another origin with 403 and sets no cookie", async () => {
    // One context throughout: @sparticuz/chromium runs single-process, where closing a context ends the browser.
    await context.clearCookies();
    const p = await context.newPage();
    await p.goto(evilUrl);
    const [answer] = await Promise.all([
      p.waitForResponse(`${url}/app/login`),
      p.evaluate(() => (document.getElementById("f") as HTMLFormElement).submit()),
    ]);
    expect(answer.status()).toBe(403);
    expect(await answer.headerValue("set-cookie")).toBeNull();
    expect((await context.cookies(url)).map((c) => c.name)).not.toContain("pome_key");
    await p.close();
  });
});

describe("an uploaded report.html never renders on the platform's origin", () => {
  it("downloads the file at its url_private instead of showing it", async () => {
    const s = await pome.v1<{
      session_id: string;
      agent_token: string;
      provider_credentials: { slack: { token: string } };
      per_twin: Record<string, { api_url: string }>;
    }>("POST", "/v1/sandboxes", { task_source: "IyAuLgo=", twins: ["slack"] });
    const api = s.per_twin.slack.api_url;
    const auth = { authorization: `Bearer ${s.provider_credentials.slack.token}` };
    const html = "<!doctype html><title>evil</title><script>document.title='ran'</script>";
    const reserve = (await (
      await fetch(`${api}/api/files.getUploadURLExternal`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ filename: "report.html", length: String(html.length) }),
      })
    ).json()) as { upload_url: string; file_id: string };
    await fetch(reserve.upload_url, { method: "POST", headers: { ...auth, "content-type": "text/html" }, body: html });
    const done = (await (
      await fetch(`${api}/api/files.completeUploadExternal`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ files: JSON.stringify([{ id: reserve.file_id }]) }),
      })
    ).json()) as { files: { url_private: string }[] };
    const fileUrl = done.files[0]?.url_private ?? "";
    expect(fileUrl).toContain("/files-pri/");

    const p = await context.newPage();
    await p.setExtraHTTPHeaders(auth);
    const [download] = await Promise.all([p.waitForEvent("download"), p.goto(fileUrl).catch(() => null)]);
    expect(download.suggestedFilename()).toBe("report.html");
    expect(await p.title()).not.toBe("ran");
    await p.close();
  });
});
