// The README's walk-through, call for call: who the agent is on GitHub is the seed's
// authenticated_user, or else the first User of `users`.
import { describe, expect, it } from "vitest";
import { createSandbox, postJson, twinFetch } from "../helpers";

const world = (extra: Record<string, unknown> = {}) => ({
  ...extra,
  users: [{ login: "northwind", type: "Organization" }, { login: "alice" }, { login: "triage-bot", name: "Triage Bot" }],
  repositories: [
    {
      owner: "northwind",
      name: "payments",
      labels: [{ name: "bug", color: "d73a4a" }],
      issues: [{ number: 1, title: "Refunds fail on partial capture", user: "alice" }],
    },
  ],
});

describe("the walk-through", () => {
  it("acts as the seed's authenticated_user, and grades the run", async () => {
    const sandbox = await createSandbox({ twins: ["github"], seed: world({ authenticated_user: "triage-bot" }) });
    expect(await (await twinFetch(sandbox, "/user")).json()).toMatchObject({ login: "triage-bot", name: "Triage Bot" });
    expect((await twinFetch(sandbox, "/repos/northwind/payments/issues/1")).status).toBe(200);
    expect(
      (await twinFetch(sandbox, "/repos/northwind/payments/issues/1/labels", { method: "POST", body: '{"labels":["bug"]}' })).status,
    ).toBe(200);
    const comment = await twinFetch(sandbox, "/repos/northwind/payments/issues/1/comments", { method: "POST", body: '{"body":"triaged"}' });
    expect(comment.status).toBe(201);
    expect(await comment.json()).toMatchObject({ body: "triaged", user: { login: "triage-bot" } });

    const graded = await postJson(`/v1/sandboxes/${sandbox.session_id}/finalize`, {
      stop_reason: "done",
      exit_code: 0,
      duration_ms: 1000,
      agent_model: "by-hand",
      criteria: [
        { id: "c1", kind: "code", text: "Issue #1 in `northwind/payments` has the `bug` label applied" },
        { id: "c2", kind: "code", text: 'A comment containing "triaged" exists on issue #1 in `northwind/payments`' },
      ],
    });
    expect(await graded.json()).toMatchObject({ score: 100 });
  });

  it("acts as the first User of the seed when it names no authenticated_user", async () => {
    const sandbox = await createSandbox({ twins: ["github"], seed: world() });
    expect(await (await twinFetch(sandbox, "/user")).json()).toMatchObject({ login: "alice" });
  });
});
