import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createSandbox, postJson } from "../helpers";

describe("a run's dashboard_url opens a page that shows its report", () => {
  it("serves the run page, which reads the report through /v1 with the team key", async () => {
    const sandbox = await createSandbox();
    const finalized = await postJson(`/v1/sandboxes/${sandbox.session_id}/finalize`, {
      stop_reason: "done", exit_code: 0, duration_ms: 1, agent_model: "m",
      criteria: [{ id: "c1", kind: "code", text: "Issue #1 exists in `acme/api`" }],
    });
    const { run_id, dashboard_url } = await finalized.json<{ run_id: string; dashboard_url: string }>();
    expect(dashboard_url).toBe(`http://pome.test/app/runs/${run_id}`);
    const res = await SELF.fetch(dashboard_url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain(`const runId = "${run_id}"`);
    expect(html).toContain('fetch("/v1/runs/" + runId + "/report.md"');
    // In local development the page already knows the local key; the key is never in a URL.
    expect(html).toContain('const localKey = "pme_local_dev"');
  });

  it("answers 404 for something that is not a run id", async () => {
    const res = await SELF.fetch("http://pome.test/app/runs/%3Cscript%3E");
    expect(res.status).toBe(404);
  });
});
