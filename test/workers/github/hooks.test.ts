// Repository webhooks through @octokit/rest: created, read, updated and deleted; events delivered
// through the platform's outbox with GitHub's headers and an X-Hub-Signature-256 that verifies
// (node:crypto, independently of the twin); the delivery log; egress refusals in GitHub's shape.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ciWorld } from "./ci-world";
import { failure, sandboxWith } from "./fixtures";

const repo = { owner: "acme", repo: "api" };
const HOOK_URL = "http://127.0.0.1:9/github-hook";
/** A receiver that answers 500 to everything. */
const BROKEN_HOOK_URL = "http://127.0.0.1:9/broken-hook";

/** Deliveries the sandbox POSTed outside the platform, answered 200 as a receiver would. */
const delivered: { url: string; headers: Headers; body: string }[] = [];
let waiters: (() => void)[] = [];

function deliveries(count: number): Promise<typeof delivered> {
  return new Promise((resolve) => {
    const check = () => (delivered.length >= count ? resolve(delivered) : waiters.push(check));
    check();
  });
}

beforeAll(() => {
  const real = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (!req.url.startsWith(HOOK_URL) && !req.url.startsWith(BROKEN_HOOK_URL)) return real(req);
    delivered.push({ url: req.url, headers: req.headers, body: await req.text() });
    const woken = waiters;
    waiters = [];
    for (const w of woken) w();
    if (req.url.startsWith(BROKEN_HOOK_URL)) return new Response("down", { status: 500 });
    return new Response("ok", { status: 200, headers: { "x-receiver": "test" } });
  });
});
afterAll(() => vi.unstubAllGlobals());

const sign = (algorithm: "sha256" | "sha1", secret: string, body: string) => createHmac(algorithm, secret).update(body).digest("hex");

describe("a webhook is created, read, updated and deleted", () => {
  it("creates a hook (pinged at once), hides its secret, edits its events, and deletes it", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const before = delivered.length;
    const created = await octokit.repos.createWebhook({
      ...repo,
      config: { url: HOOK_URL, content_type: "json", secret: "s3cret" },
      events: ["issues", "workflow_run"],
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      name: "web",
      active: true,
      events: ["issues", "workflow_run"],
      config: { url: HOOK_URL, content_type: "json", secret: "********" },
    });
    const [pinged] = (await deliveries(before + 1)).slice(before);
    expect(pinged?.headers.get("x-github-event")).toBe("ping");
    expect(JSON.parse(pinged?.body ?? "{}")).toMatchObject({ hook_id: created.data.id, zen: expect.any(String) });
    const updated = await octokit.repos.updateWebhook({
      ...repo,
      hook_id: created.data.id,
      add_events: ["check_run"],
      remove_events: ["issues"],
    });
    expect(updated.data.events).toEqual(["workflow_run", "check_run"]);
    expect((await octokit.repos.listWebhooks(repo)).data.map((h) => h.id)).toEqual([created.data.id]);
    expect((await octokit.repos.deleteWebhook({ ...repo, hook_id: created.data.id })).status).toBe(204);
    expect((await failure(octokit.repos.getWebhook({ ...repo, hook_id: created.data.id }))).status).toBe(404);
  });

  it("refuses a URL the egress policy refuses, in GitHub's 422 shape, and stores nothing", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const refused = await failure(octokit.repos.createWebhook({ ...repo, config: { url: "http://169.254.169.254/latest" } }));
    expect(refused.status).toBe(422);
    expect(refused.response.data).toMatchObject({ message: "Validation Failed", errors: [{ resource: "Hook", code: "custom" }] });
    const missing = await failure(octokit.repos.createWebhook({ ...repo, config: {} }));
    expect(missing.status).toBe(422);
    expect((await octokit.repos.listWebhooks(repo)).data).toEqual([]);
  });
});

describe("events reach a hook signed with its secret", () => {
  it("delivers workflow_run on a re-run with GitHub's headers and signatures", async () => {
    const secret = "It's a Secret to Everybody";
    const { octokit } = await sandboxWith(
      ciWorld({ hooks: [{ id: 900, url: HOOK_URL, content_type: "json", secret, events: ["workflow_run", "check_run"] }] }),
    );
    const before = delivered.length;
    await octokit.actions.reRunWorkflowFailedJobs({ ...repo, run_id: 600 });
    const [hit] = (await deliveries(before + 1)).slice(before);
    expect(hit?.url).toBe(HOOK_URL);
    expect(hit?.headers.get("x-github-event")).toBe("workflow_run");
    expect(hit?.headers.get("x-github-hook-id")).toBe("900");
    expect(hit?.headers.get("x-github-delivery")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(hit?.headers.get("content-type")).toBe("application/json");
    expect(hit?.headers.get("x-hub-signature-256")).toBe(`sha256=${sign("sha256", secret, hit?.body ?? "")}`);
    expect(hit?.headers.get("x-hub-signature")).toBe(`sha1=${sign("sha1", secret, hit?.body ?? "")}`);
    expect(JSON.parse(hit?.body ?? "{}")).toMatchObject({
      action: "completed",
      workflow_run: { id: 600, run_attempt: 2, conclusion: "success" },
      repository: { full_name: "acme/api" },
      sender: { login: "octo" },
    });
    await octokit.checks.create({ ...repo, name: "unit", head_sha: "main" });
    const [check] = (await deliveries(before + 2)).slice(before + 1);
    expect(JSON.parse(check?.body ?? "{}")).toMatchObject({ action: "created", check_run: { name: "unit", status: "queued" } });
  });

  it("sends a form hook its payload field, unsigned without a secret, and skips events it does not take", async () => {
    const { octokit } = await sandboxWith(ciWorld({ hooks: [{ url: HOOK_URL, events: ["push"] }] }));
    const hook = (await octokit.repos.listWebhooks(repo)).data[0];
    const before = delivered.length;
    await octokit.actions.reRunWorkflow({ ...repo, run_id: 500 }); // workflow_run: not subscribed
    await octokit.repos.testPushWebhook({ ...repo, hook_id: hook?.id ?? 0 });
    const [push] = (await deliveries(before + 1)).slice(before);
    expect(push?.headers.get("x-github-event")).toBe("push");
    expect(push?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(push?.headers.get("x-hub-signature-256")).toBeNull();
    const payload = JSON.parse(new URLSearchParams(push?.body ?? "").get("payload") ?? "{}") as { ref: string };
    expect(payload.ref).toBe("refs/heads/main");
  });
});

describe("issue, comment and pull-request changes are delivered as GitHub names them", () => {
  it("sends issues opened and closed, issue_comment created, pull_request opened and closed", async () => {
    const { octokit } = await sandboxWith(
      ciWorld({ hooks: [{ url: HOOK_URL, content_type: "json", events: ["issues", "issue_comment", "pull_request"] }] }),
    );
    const before = delivered.length;
    const issue = await octokit.issues.create({ ...repo, title: "Flaky test" });
    await octokit.issues.createComment({ ...repo, issue_number: issue.data.number, body: "Seen on CI" });
    await octokit.issues.update({ ...repo, issue_number: issue.data.number, state: "closed" });
    // A pull request edited through the issues API is a pull_request event, as on GitHub.
    await octokit.issues.update({ ...repo, issue_number: 4, title: "Raise the timeout to 30s" });
    await octokit.pulls.merge({ ...repo, pull_number: 4 });
    const got = (await deliveries(before + 5)).slice(before).map((d) => {
      const body = JSON.parse(d.body) as {
        action: string;
        issue?: { number: number };
        comment?: { body: string };
        pull_request?: { merged: boolean };
      };
      return [d.headers.get("x-github-event"), body.action, body.issue?.number ?? body.pull_request?.merged, body.comment?.body];
    });
    expect(got).toEqual([
      ["issues", "opened", issue.data.number, undefined],
      ["issue_comment", "created", issue.data.number, "Seen on CI"],
      ["issues", "closed", issue.data.number, undefined],
      ["pull_request", "edited", false, undefined],
      ["pull_request", "closed", true, undefined],
    ]);
  });
});

describe("the delivery log lists, shows and redelivers", () => {
  it("records each delivery with its request, and a redelivery is marked so", async () => {
    const { octokit } = await sandboxWith(ciWorld({ hooks: [{ id: 900, url: HOOK_URL, content_type: "json", events: ["*"] }] }));
    await octokit.repos.pingWebhook({ ...repo, hook_id: 900 });
    const log = await octokit.repos.listWebhookDeliveries({ ...repo, hook_id: 900 });
    expect(log.data.map((d) => d.event)).toEqual(["ping"]);
    const one = await octokit.repos.getWebhookDelivery({ ...repo, hook_id: 900, delivery_id: log.data[0]?.id ?? 0 });
    expect(one.data.request.headers).toMatchObject({ "x-github-event": "ping", "x-github-hook-id": "900" });
    expect(one.data.request.payload).toMatchObject({ hook_id: 900 });
    const before = delivered.length;
    expect((await octokit.repos.redeliverWebhookDelivery({ ...repo, hook_id: 900, delivery_id: one.data.id })).status).toBe(202);
    await deliveries(before + 1);
    const after = await octokit.repos.listWebhookDeliveries({ ...repo, hook_id: 900 });
    expect(after.data.map((d) => [d.event, d.redelivery])).toEqual([
      ["ping", true],
      ["ping", false],
    ]);
  });

  it("shows each attempt's outcome once the platform has sent it: OK, or GitHub's Invalid HTTP Response", async () => {
    const { octokit } = await sandboxWith(
      ciWorld({
        hooks: [
          { id: 901, url: HOOK_URL, content_type: "json", events: ["*"] },
          { id: 902, url: BROKEN_HOOK_URL, content_type: "json", events: ["*"] },
        ],
      }),
    );
    await octokit.repos.pingWebhook({ ...repo, hook_id: 901 });
    await octokit.repos.pingWebhook({ ...repo, hook_id: 902 });
    // The outbox sends after the call commits and records the outcome after the answer.
    const settled = async (hook_id: number) => {
      for (let i = 0; i < 100; i++) {
        const [last] = (await octokit.repos.listWebhookDeliveries({ ...repo, hook_id })).data;
        if (last && last.status !== "queued") return last;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`hook ${hook_id}: the delivery stayed queued`);
    };
    const good = await settled(901);
    expect(good).toMatchObject({ status: "OK", status_code: 200, event: "ping" });
    expect(good.duration).toBeGreaterThanOrEqual(0);
    const detail = await octokit.repos.getWebhookDelivery({ ...repo, hook_id: 901, delivery_id: good.id });
    expect(detail.data.response.headers).toMatchObject({ "x-receiver": "test" });
    expect((await octokit.repos.getWebhook({ ...repo, hook_id: 901 })).data.last_response).toEqual({
      code: 200,
      status: "active",
      message: "OK",
    });
    const bad = await settled(902);
    expect(bad).toMatchObject({ status: "Invalid HTTP Response: 500", status_code: 500 });
    expect((await octokit.repos.getWebhook({ ...repo, hook_id: 902 })).data.last_response).toMatchObject({
      code: 500,
      message: "Invalid HTTP Response: 500",
    });
  });
});
