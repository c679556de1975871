// /v1/checks: the published vocabulary, and render/bind running the grader's own binding code.
import { describe, expect, it } from "vitest";
import { TWIN_IDS, TWINS } from "../../../durable-objects/twins/registry";
import { stripeTwin } from "../../../durable-objects/twins/stripe";
import { api, postJson } from "../helpers";

interface Vocabulary {
  twin: string;
  count: number;
  digest: string;
  checks: {
    id: string;
    template: string;
    description: string;
    substrate: string;
    params: { name: string; pattern: string; example: string }[];
    example: string;
  }[];
}

describe("GET /v1/checks", () => {
  it("returns GitHub's twelve checks with substrates, params and a digest", async () => {
    const res = await api("/v1/checks?twin=github");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Vocabulary;
    expect(body).toMatchObject({ twin: "github", count: 12 });
    expect(body.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(body.checks.find((c) => c.id === "github.no-new-labels")).toMatchObject({
      substrate: "seed+final",
      params: [{ name: "repo", pattern: "[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", example: "acme/api" }],
      example: "No new labels were created in `acme/api`",
    });
    expect(body.checks.find((c) => c.id === "github.no-unsupported-endpoint")?.substrate).toBe("tape");
  });

  it("serves each twin's own vocabulary", async () => {
    const body = (await (await api("/v1/checks?twin=stripe")).json()) as Vocabulary;
    expect(body).toMatchObject({ twin: "stripe", count: stripeTwin.checks.length });
    expect(body.checks.map((c) => c.id)).toContain("stripe.refund-exists");
  });

  // A twin whose issue has not landed yet publishes an empty vocabulary (none may be left).
  const bare = TWIN_IDS.find((id) => !TWINS[id].checks.length);
  it.runIf(bare !== undefined)("returns an empty set for a twin without a vocabulary yet", async () => {
    const body = (await (await api(`/v1/checks?twin=${bare}`)).json()) as Vocabulary;
    expect(body).toMatchObject({ twin: bare, count: 0, checks: [] });
  });

  it("answers 422 for a missing or unknown twin", async () => {
    const missing = await api("/v1/checks");
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ error: { details: { issues: [{ path: "twin", message: "Required" }] } } });
    const unknown = await api("/v1/checks?twin=gitlab");
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toMatchObject({ error: { details: { issues: [{ path: "twin", message: "Unknown twin" }] } } });
  });

  it("needs the team key", async () => {
    expect((await api("/v1/checks?twin=github", { key: null })).status).toBe(401);
  });
});

describe("POST /v1/checks/render", () => {
  it("renders each item into the sentence the grader binds", async () => {
    const res = await postJson("/v1/checks/render", {
      twin: "github",
      items: [
        { check: "github.issue-comment-contains", args: { issue: "1", repo: "northwind/payments", needle: "triaged" } },
        { check: "github.no-unsupported-endpoint", args: {} },
      ],
    });
    expect(await res.json()).toEqual({
      twin: "github",
      lines: ['A comment containing "triaged" exists on issue #1 in `northwind/payments`', "No unsupported endpoint was called"],
    });
  });

  it.each([
    [{ check: "github.nope", args: {} }, "items[0].check"],
    [{ check: "github.issue-exists", args: { repo: "acme/api" } }, "items[0].args.issue"],
    [{ check: "github.issue-exists", args: { issue: 1, repo: "acme/api" } }, "items[0].args.issue"],
    [{ check: "github.issue-exists", args: { issue: "0", repo: "acme/api" } }, "items[0].args.issue"],
  ])("answers 422 naming the failing path for %j", async (item, path) => {
    const res = await postJson("/v1/checks/render", { twin: "github", items: [item] });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { message: string; details: { issues: { path: string }[] } } };
    expect(body.error.details.issues[0].path).toBe(path);
    expect(body.error.message.startsWith(path)).toBe(true);
  });

  it("takes 1–100 items", async () => {
    expect((await postJson("/v1/checks/render", { twin: "github", items: [] })).status).toBe(422);
    const many = Array.from({ length: 101 }, () => ({ check: "github.no-unsupported-endpoint", args: {} }));
    expect((await postJson("/v1/checks/render", { twin: "github", items: many })).status).toBe(422);
  });
});

describe("POST /v1/checks/bind", () => {
  it("binds what renders and ranks the nearest templates for what does not", async () => {
    const res = await postJson("/v1/checks/bind", {
      twin: "github",
      texts: ['A comment containing "triaged" exists on issue #1 in `northwind/payments`', "Issue #1 in acme/api has the bug label"],
    });
    const body = (await res.json()) as { twin: string; results: { check_id: string | null; nearest?: string[] }[] };
    expect(body.results[0]).toEqual({ check_id: "github.issue-comment-contains", already_true_in_seed: false });
    expect(body.results[1].check_id).toBeNull();
    expect(body.results[1].nearest?.[0]).toBe("github.issue-has-label — Issue #{issue} in `{repo}` has the `{label}` label applied");
  });

  it("says which sentences the seed (or the default world) already satisfies, and how to keep them scored", async () => {
    interface Bound {
      results: { check_id: string | null; already_true_in_seed?: boolean; warning?: string }[];
    }
    const texts = ["Issue #3 in `acme/api` has the `bug` label applied", "Issue #1 in `acme/api` has the `bug` label applied"];
    // The default world: issue #3 carries `bug`, issue #1 does not.
    const onDefault = await (await postJson("/v1/checks/bind", { twin: "github", texts })).json<Bound>();
    expect(onDefault.results.map((r) => r.already_true_in_seed)).toEqual([true, false]);
    expect(onDefault.results[0].warning).toContain("finalize will exclude it from the score");
    expect(onDefault.results[0].warning).toContain("- [code always_scored] Issue #3 in `acme/api` has the `bug` label applied");
    expect(onDefault.results[1]).not.toHaveProperty("warning");

    // A seed of the caller's: issue #1 is the labelled one now.
    const seed = {
      users: [{ login: "acme", type: "Organization" }, { login: "alice" }],
      repositories: [
        {
          owner: "acme",
          name: "api",
          labels: [{ name: "bug" }],
          issues: [
            { number: 1, title: "x", user: "alice", labels: ["bug"] },
            { number: 3, title: "y", user: "alice" },
          ],
        },
      ],
    };
    const onSeed = await (await postJson("/v1/checks/bind", { twin: "github", texts, seed })).json<Bound>();
    expect(onSeed.results.map((r) => r.already_true_in_seed)).toEqual([false, true]);
    // always_scored keeps it scored: no warning.
    const kept = await (await postJson("/v1/checks/bind", { twin: "github", texts, seed, always_scored: [1] })).json<Bound>();
    expect(kept.results.map((r) => r.already_true_in_seed)).toEqual([false, false]);
    // A seed that does not boot is refused as POST /v1/sandboxes refuses it.
    expect((await postJson("/v1/checks/bind", { twin: "github", texts, seed: { repositories: "no" } })).status).toBe(422);
  });

  it("answers 422 for an unknown twin or a malformed body", async () => {
    expect((await postJson("/v1/checks/bind", { twin: "gitlab", texts: ["x"] })).status).toBe(422);
    expect((await postJson("/v1/checks/bind", { twin: "github", texts: [1] })).status).toBe(422);
    expect((await postJson("/v1/checks/bind", { twin: "github", texts: [] })).status).toBe(422);
  });
});
