// Finalize on a real sandbox: the scoring rules end to end, idempotence, closing, and its errors.
import { describe, expect, it } from "vitest";
import { api, createSandbox, octokitFor, postJson, twinFetch } from "../helpers";
import { code, finalize, finalizeOk, getJson, triagedSandbox, twinServes } from "./run-helpers";

describe("finalize grades a sandbox into a run", () => {
  it("scores passed over evaluated, with skipped and unmatched criteria out of the denominator", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/repos/acme/api");
    await twinFetch(sandbox, "/repos/acme/api/pages", { method: "POST", body: "{}" }); // not implemented: 501
    const run = await finalizeOk(sandbox.session_id, [
      code("exists", "Issue #1 exists in `acme/api`", { always_scored: true }),
      code("missing", "Issue #9 exists in `acme/api`"),
      code("seeded", "Issue #3 in `acme/api` has the `bug` label applied"),
      code("no-new", "No new labels were created in `acme/api`", { always_scored: true }),
      code("unsupported", "No unsupported endpoint was called", { always_scored: true }),
      code("prose", "The agent was careful"),
      { id: "model", text: "The agent explained itself", kind: "model" },
    ]);
    const byId = Object.fromEntries(run.criteria_results.map((r) => [r.id, r]));
    expect(byId.exists).toMatchObject({
      status: "passed",
      passed: true,
      skipped: false,
      reason: "issue #1 exists in acme/api",
      twin: "github",
    });
    expect(byId.missing).toMatchObject({ status: "failed", passed: false, reason: "acme/api has no issue #9" });
    expect(byId.seeded).toMatchObject({ status: "skipped", skipped: true, skip_reason: "already_true_in_seed" });
    expect(byId["no-new"]).toMatchObject({ status: "passed", reason: "acme/api defines no label beyond the 5 in the seed" });
    expect(byId.unsupported.status).toBe("failed");
    expect(byId.unsupported.reason).toContain("POST /repos/acme/api/pages");
    expect(byId.prose).toMatchObject({ status: "unmatched", passed: false, skipped: false });
    expect(byId.model).toMatchObject({ status: "skipped", skip_reason: "judge_unavailable", passed: false });
    expect(run.score).toBe(50);
    expect(run.all_skipped).toBe(false);
    expect(run.criteria_breakdown).toMatchObject({ total: 7, evaluated: 4, passed: 2, failed: 2, skipped: 2, unmatched: 1 });
    expect(run).toMatchObject({ provenance: "hosted", judge_model: null });
    expect(run.run_id).toMatch(/^run_/);
    expect(run.dashboard_url).toMatch(new RegExp(`/app/runs/${run.run_id}$`));
    expect(run.fix_prompt).toContain("Issue #9 exists in `acme/api`");
    expect(run.fix_prompt).toContain("POST /repos/acme/api/pages on github");
  });

  it.runIf(twinServes("POST", "/repos/acme/api/issues/1/labels") && twinServes("POST", "/repos/acme/api/issues/1/comments"))(
    "grades what the agent changed through the official client",
    async () => {
      const sandbox = await triagedSandbox();
      const run = await finalizeOk(sandbox.session_id, [
        code("label", "Issue #1 in `acme/api` has the `bug` label applied"),
        code("assignee", "Issue #1 in `acme/api` is assigned to `alice`"),
        code("comment", 'A comment containing "Triaged" exists on issue #1 in `acme/api`'),
        code("no-new", "No new labels were created in `acme/api`", { always_scored: true }),
      ]);
      expect(run.criteria_results.map((r) => [r.id, r.status])).toEqual([
        ["label", "passed"],
        ["assignee", "failed"],
        ["comment", "passed"],
        ["no-new", "passed"],
      ]);
      expect(run.score).toBe(75);
    },
  );

  it.runIf(twinServes("POST", "/repos/acme/api/issues/1/labels"))(
    "fails no-new-labels when the agent applied a label GitHub had to create",
    async () => {
      const sandbox = await createSandbox();
      await octokitFor(sandbox).issues.addLabels({ owner: "acme", repo: "api", issue_number: 1, labels: ["needs-triage"] });
      const run = await finalizeOk(sandbox.session_id, [code("c1", "No new labels were created in `acme/api`", { always_scored: true })]);
      expect(run.criteria_results[0]).toMatchObject({
        status: "failed",
        reason: "acme/api gained label the seed did not define: `needs-triage`",
      });
      expect(run.score).toBe(0);
    },
  );

  it("gives a null score with all_skipped when nothing could be evaluated", async () => {
    const sandbox = await createSandbox();
    const run = await finalizeOk(sandbox.session_id, [
      code("c1", "Issue #3 in `acme/api` has the `bug` label applied"),
      code("c2", "Nothing binds here"),
    ]);
    expect(run).toMatchObject({ score: null, all_skipped: true });
  });

  it("returns the same run when finalized twice, and closes the sandbox", async () => {
    const sandbox = await createSandbox();
    const criteria = [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })];
    const first = await finalizeOk(sandbox.session_id, criteria);
    const second = await finalizeOk(sandbox.session_id, [code("other", "Issue #1 exists in `acme/api`")]);
    expect(second.run_id).toBe(first.run_id);
    expect(second.criteria_results).toEqual(first.criteria_results);
    const { body } = await getJson<{ state: string }>(`/v1/sandboxes/${sandbox.session_id}`);
    expect(body.state).toBe("done");
    expect((await twinFetch(sandbox, "/repos/acme/api")).status).toBe(410);
  });

  it("answers on the /v1/sessions alias too", async () => {
    const sandbox = await createSandbox();
    const res = await finalize(sandbox.session_id, [code("c1", "Issue #1 exists in `acme/api`")]);
    expect(res.status).toBe(200);
    const again = await api(`/v1/sessions/${sandbox.session_id}/finalize`, {
      method: "POST",
      body: JSON.stringify({ stop_reason: "done", exit_code: 0, duration_ms: 1, agent_model: "m", criteria: [code("c1", "x")] }),
    });
    expect(((await again.json()) as { run_id: string }).run_id).toBe(((await res.json()) as { run_id: string }).run_id);
  });

  it("grades a multi-twin sandbox per twin, with tape checks scoped to their twin", async () => {
    const sandbox = await createSandbox({ twins: ["github", "stripe"] });
    await twinFetch(sandbox, "/v1/issuing/cards", { method: "POST" }, "stripe"); // a Stripe route the twin does not implement: 501
    const run = await finalizeOk(sandbox.session_id, [
      code("gh", "No unsupported endpoint was called", { always_scored: true }),
      code("st", "No unsupported endpoint was called", { twin: "stripe" }),
    ]);
    expect(run.criteria_results[0]).toMatchObject({ twin: "github", status: "passed" });
    // Not always scored, and true before the agent acted: skipped, with the failure in its reason.
    expect(run.criteria_results[1]).toMatchObject({ twin: "stripe", status: "skipped", skip_reason: "already_true_in_seed" });
    expect(run.criteria_results[1].reason).toContain("POST /v1/issuing/cards");
  });
});

describe("finalize refuses bad input and changes nothing", () => {
  it("answers 422 empty_criteria for an empty list", async () => {
    const sandbox = await createSandbox();
    const res = await finalize(sandbox.session_id, []);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { type: "validation_failed", details: { error: "empty_criteria" } } });
    expect((await twinFetch(sandbox, "/repos/acme/api")).status).toBe(200);
  });

  it("names the failing field of a missing required input", async () => {
    const sandbox = await createSandbox();
    const res = await api(`/v1/sandboxes/${sandbox.session_id}/finalize`, {
      method: "POST",
      body: JSON.stringify({ criteria: [code("c1", "x")], exit_code: 0, duration_ms: 1, agent_model: "m" }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { details: { issues: [{ path: "stop_reason" }] } } });
  });

  it("refuses a criterion routed to a twin the sandbox does not have", async () => {
    const sandbox = await createSandbox();
    const res = await finalize(sandbox.session_id, [code("c1", "x", { twin: "slack" })]);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { details: { issues: [{ path: "criteria[0].twin" }] } } });
  });

  it("refuses more than 200 criteria and bodies over 256 KiB", async () => {
    const sandbox = await createSandbox();
    const many = Array.from({ length: 201 }, (_, i) => code(`c${i}`, "Issue #1 exists in `acme/api`"));
    expect((await finalize(sandbox.session_id, many)).status).toBe(422);
    const huge = await finalize(sandbox.session_id, [code("c1", "x")], { scenario_prompt: "x".repeat(300 * 1024) });
    expect(huge.status).toBe(413);
  });

  it("answers 404 for an unknown sandbox", async () => {
    expect((await finalize("ses_doesnotexist0000", [code("c1", "x")])).status).toBe(404);
  });
});

describe("finalize without criteria grades the sandbox's own task", () => {
  const task = [
    "# Label the timeout bug",
    "",
    "## Prompt",
    "Put the bug label on issue #1 in acme/api.",
    "",
    "## Success Criteria",
    "- [code] Issue #1 in `acme/api` has the `bug` label applied",
    "",
  ].join("\n");
  const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

  it("uses the task's criteria when the body omits them, and stamps the sandbox's baseline group", async () => {
    const sandbox = await createSandbox({ task_source: b64(task), group_id: "grp_rerun_x", baseline_group_id: "grp_base_x" });
    await octokitFor(sandbox).issues.addLabels({ owner: "acme", repo: "api", issue_number: 1, labels: ["bug"] });
    const res = await postJson(`/v1/sandboxes/${sandbox.session_id}/finalize`, {
      stop_reason: "done",
      exit_code: 0,
      duration_ms: 5,
      agent_model: "m",
    });
    expect(res.status).toBe(200);
    const body = await res.json<{ score: number; run_id: string; criteria_results: { id: string; status: string }[] }>();
    expect(body.score).toBe(100);
    expect(body.criteria_results).toMatchObject([{ id: "c1", status: "passed" }]);
    const run = await (await api(`/v1/runs/${body.run_id}`)).json<{ baseline_group_id: string | null }>();
    expect(run.baseline_group_id).toBe("grp_base_x");
  });

  it("refuses with empty_criteria when neither the body nor the task has any", async () => {
    const sandbox = await createSandbox();
    const res = await postJson(`/v1/sandboxes/${sandbox.session_id}/finalize`, {
      stop_reason: "done",
      exit_code: 0,
      duration_ms: 5,
      agent_model: "m",
    });
    expect(res.status).toBe(422);
    expect((await res.json<{ error: { details: { error: string } } }>()).error.details.error).toBe("empty_criteria");
  });
});
