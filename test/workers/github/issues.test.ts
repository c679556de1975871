import { describe, expect, it } from "vitest";
import { twinFetch } from "../helpers";
import { failure, manyIssuesWorld, sandboxWith, smallWorld, stateOf, tapeOf } from "./fixtures";

describe("issues list like GitHub's, pull requests included", () => {
  it("lists open issues and pull requests newest first, flagging pulls with pull_request", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data, headers } = await octokit.issues.listForRepo({ owner: "acme", repo: "api" });
    expect(data.map((i) => i.number)).toEqual([4, 2, 1]);
    const pull = data[0];
    expect(pull.pull_request).toMatchObject({ merged_at: null });
    expect(pull.pull_request?.url).toMatch(/\/repos\/acme\/api\/pulls\/4$/);
    expect(pull.pull_request?.html_url).toBe("https://github.com/acme/api/pull/4");
    expect(data[1].pull_request).toBeUndefined();
    expect(headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(headers["x-github-request-id"]).toBeTruthy();
    expect(headers["x-ratelimit-limit"]).toBe("5000");
  });

  it("serializes labels as objects, assignees as users, milestone and counts", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const { data } = await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 1 });
    expect(data.labels).toEqual([
      expect.objectContaining({
        name: "bug",
        color: "d73a4a",
        default: false,
        description: "Something isn't working",
        id: expect.any(Number),
        node_id: expect.any(String),
      }),
    ]);
    expect(data.assignee?.login).toBe("bob");
    expect(data.assignees?.map((a) => a.login)).toEqual(["bob"]);
    expect(data.milestone).toMatchObject({ number: 1, title: "v1.0", open_issues: 1, closed_issues: 0 });
    expect(data.user?.login).toBe("alice");
    expect(data.author_association).toBe("MEMBER");
    expect(data.url.startsWith(sandbox.per_twin.github.api_url)).toBe(true);
    expect(data.html_url).toBe("https://github.com/acme/api/issues/1");
    expect(data.closed_by).toBeNull();
    expect(data.reactions).toMatchObject({ total_count: 0, "+1": 0 });
  });

  it("filters by state, labels, assignee, creator, mentioned, milestone and since", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const numbers = async (params: Record<string, string | number>) =>
      (await octokit.issues.listForRepo({ owner: "acme", repo: "api", ...params })).data.map((i) => i.number);
    expect(await numbers({ state: "closed" })).toEqual([3]);
    expect(await numbers({ state: "all" })).toEqual([4, 3, 2, 1]);
    expect(await numbers({ state: "all", labels: "bug" })).toEqual([3, 1]);
    expect(await numbers({ state: "all", labels: "bug,enhancement" })).toEqual([]);
    expect(await numbers({ state: "all", labels: "no-such-label" })).toEqual([]);
    expect(await numbers({ assignee: "bob" })).toEqual([1]);
    expect(await numbers({ assignee: "none" })).toEqual([4, 2]);
    expect(await numbers({ assignee: "*" })).toEqual([1]);
    expect(await numbers({ creator: "bob" })).toEqual([4, 2]);
    expect(await numbers({ mentioned: "alice" })).toEqual([1]);
    expect(await numbers({ milestone: "1" })).toEqual([1]);
    expect(await numbers({ milestone: "none" })).toEqual([4, 2]);
    expect(await numbers({ sort: "created", direction: "asc" })).toEqual([1, 2, 4]);
    expect(await numbers({ state: "all", sort: "comments" })).toEqual([3, 4, 2, 1]);
    await octokit.issues.update({ owner: "acme", repo: "api", issue_number: 2, title: "Document pagination headers" });
    expect(await numbers({ since: "2026-06-01T00:00:00Z" })).toEqual([2]);
    expect(await numbers({ sort: "updated" })).toEqual([2, 4, 1]);
  });

  it("walks every page with octokit.paginate and sends GitHub's Link header", async () => {
    const { octokit, sandbox } = await sandboxWith(manyIssuesWorld(75));
    const first = await octokit.issues.listForRepo({ owner: "acme", repo: "big", per_page: 30 });
    expect(first.data).toHaveLength(30);
    const base = sandbox.per_twin.github.api_url;
    const repoId = (await octokit.repos.get({ owner: "acme", repo: "big" })).data.id;
    expect(first.headers.link).toBe(
      `<${base}/repositories/${repoId}/issues?per_page=30&page=2>; rel="next", <${base}/repositories/${repoId}/issues?per_page=30&page=3>; rel="last"`,
    );
    const middle = await octokit.issues.listForRepo({ owner: "acme", repo: "big", per_page: 30, page: 2 });
    expect(middle.headers.link).toBe(
      [
        `<${base}/repositories/${repoId}/issues?per_page=30&page=1>; rel="prev"`,
        `<${base}/repositories/${repoId}/issues?per_page=30&page=3>; rel="next"`,
        `<${base}/repositories/${repoId}/issues?per_page=30&page=3>; rel="last"`,
        `<${base}/repositories/${repoId}/issues?per_page=30&page=1>; rel="first"`,
      ].join(", "),
    );
    const all = await octokit.paginate(octokit.issues.listForRepo, { owner: "acme", repo: "big", per_page: 30 });
    expect(all).toHaveLength(75);
    expect(new Set(all.map((i) => i.number)).size).toBe(75);
    const tape = await tapeOf(sandbox);
    const pages = tape.filter((r) => r.operation === "issues.listForRepo");
    // paginate followed the Link header into the /repositories/{id} form, which answers the same.
    expect(pages.slice(-3).map((r) => r.path)).toEqual([
      "/repos/acme/big/issues",
      `/repositories/${repoId}/issues`,
      `/repositories/${repoId}/issues`,
    ]);
  });

  it("caps per_page at 100 and sends no Link header when one page holds everything", async () => {
    const { octokit } = await sandboxWith(manyIssuesWorld(120));
    const big = await octokit.issues.listForRepo({ owner: "acme", repo: "big", per_page: 500 });
    expect(big.data).toHaveLength(100);
    const { data, headers } = await octokit.issues.listForRepo({ owner: "acme", repo: "big", labels: "triage" });
    expect(data).toEqual([]);
    expect(headers.link).toBeUndefined();
  });
});

describe("issues are created, updated, closed and locked like GitHub's", () => {
  it("creates an issue with the next shared number (201), labels, assignees and milestone", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const res = await octokit.issues.create({
      owner: "acme",
      repo: "api",
      title: "New bug",
      body: "It broke",
      labels: ["bug"],
      assignees: ["alice"],
      milestone: 1,
    });
    expect(res.status).toBe(201);
    expect(res.data.number).toBe(5);
    expect(res.data.state).toBe("open");
    expect(res.data.user?.login).toBe("octo");
    expect(res.data.labels.map((l) => (typeof l === "string" ? l : l.name))).toEqual(["bug"]);
    expect(res.data.assignees?.map((a) => a.login)).toEqual(["alice"]);
    expect(res.headers.location).toBe(`${sandbox.per_twin.github.api_url}/repos/acme/api/issues/5`);
    expect(res.data.created_at).toBe(res.data.updated_at);
    expect(Date.parse(res.data.created_at)).toBeGreaterThan(Date.parse("2026-06-01T00:00:00Z"));
    const repo = await octokit.repos.get({ owner: "acme", repo: "api" });
    expect(repo.data.open_issues_count).toBe(4);
  });

  it("refuses an issue without a title with 422 missing_field", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    // A route typed as a plain string lets the call leave out what Octokit's types require.
    const createIssue: string = "POST /repos/{owner}/{repo}/issues";
    const err = await failure(octokit.request(createIssue, { owner: "acme", repo: "api", body: "no title" }));
    expect(err.status).toBe(422);
    expect(err.response.data).toMatchObject({
      message: "Validation Failed",
      errors: [{ resource: "Issue", code: "missing_field", field: "title" }],
      status: "422",
    });
  });

  it("refuses an assignee who cannot be assigned and a milestone that does not exist", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const assignee = await failure(octokit.issues.create({ owner: "acme", repo: "api", title: "x", assignees: ["mallory"] }));
    expect(assignee.status).toBe(422);
    expect(assignee.response.data.errors).toEqual([{ resource: "Issue", field: "assignees", code: "invalid", value: "mallory" }]);
    const milestone = await failure(octokit.issues.update({ owner: "acme", repo: "api", issue_number: 2, milestone: 9 }));
    expect(milestone.response.data.errors).toEqual([{ resource: "Issue", field: "milestone", code: "invalid", value: 9 }]);
  });

  it("changes nothing when an update is refused, even its valid parts", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const err = await failure(
      octokit.issues.update({ owner: "acme", repo: "api", issue_number: 2, title: "Renamed", milestone: 1, assignees: ["mallory"] }),
    );
    expect(err.status).toBe(422);
    const { data } = await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 2 });
    expect(data).toMatchObject({ title: "Document pagination", milestone: null, assignees: [] });
    expect((await tapeOf(sandbox)).find((r) => r.operation === "issues.update")?.mutated).toBe(false);
  });

  it("closes with a state_reason, records who closed it, and reopens", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const closed = await octokit.issues.update({
      owner: "acme",
      repo: "api",
      issue_number: 2,
      state: "closed",
      state_reason: "not_planned",
    });
    expect(closed.data).toMatchObject({ state: "closed", state_reason: "not_planned", closed_by: { login: "octo" } });
    expect(closed.data.closed_at).toBeTruthy();
    expect(Date.parse(closed.data.updated_at)).toBeGreaterThan(Date.parse("2026-01-02T00:00:00Z"));
    expect((await octokit.repos.get({ owner: "acme", repo: "api" })).data.open_issues_count).toBe(2);
    const reopened = await octokit.issues.update({ owner: "acme", repo: "api", issue_number: 2, state: "open" });
    expect(reopened.data).toMatchObject({ state: "open", state_reason: "reopened", closed_at: null, closed_by: null });
    const state = await stateOf<{ repositories: { issues: { number: number; state: string; state_reason: string | null }[] }[] }>(sandbox);
    expect(state.repositories[0].issues.find((i) => i.number === 2)).toMatchObject({ state: "open", state_reason: "reopened" });
  });

  it("updates title, body, labels and assignees; a label the repo lacks is created", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const { data } = await octokit.issues.update({
      owner: "acme",
      repo: "api",
      issue_number: 2,
      title: "Docs: pagination",
      body: "Explain Link.",
      labels: ["documentation"],
      assignees: ["alice", "bob"],
    });
    expect(data).toMatchObject({ title: "Docs: pagination", body: "Explain Link." });
    expect(data.labels).toEqual([expect.objectContaining({ name: "documentation", color: "ededed" })]);
    expect(data.assignees?.map((a) => a.login)).toEqual(["alice", "bob"]);
    const state = await stateOf<{ repositories: { labels: { name: string; color: string }[] }[] }>(sandbox);
    expect(state.repositories[0].labels.map((l) => l.name)).toEqual(["bug", "enhancement", "documentation"]);
  });

  it("locks (204) with a reason and unlocks (204)", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const locked = await octokit.issues.lock({ owner: "acme", repo: "api", issue_number: 1, lock_reason: "too heated" });
    expect(locked.status).toBe(204);
    expect((await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 1 })).data).toMatchObject({
      locked: true,
      active_lock_reason: "too heated",
    });
    // Octokit sends a parameterless PUT with an empty body; the twin must accept it.
    expect((await octokit.issues.lock({ owner: "acme", repo: "api", issue_number: 2 })).status).toBe(204);
    expect((await octokit.issues.unlock({ owner: "acme", repo: "api", issue_number: 1 })).status).toBe(204);
    expect((await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 1 })).data).toMatchObject({
      locked: false,
      active_lock_reason: null,
    });
    const bad = await failure(octokit.issues.lock({ owner: "acme", repo: "api", issue_number: 1, lock_reason: "boring" as "spam" }));
    expect(bad.status).toBe(422);
  });

  it("answers 404 in GitHub's shape for a missing issue or repository", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const issue = await failure(octokit.issues.get({ owner: "acme", repo: "api", issue_number: 99 }));
    expect(issue.status).toBe(404);
    expect(issue.response.data).toEqual({
      message: "Not Found",
      documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\//),
      status: "404",
    });
    expect((await failure(octokit.repos.get({ owner: "acme", repo: "nope" }))).status).toBe(404);
  });

  it("answers 400 to a body that is not JSON", async () => {
    const { sandbox } = await sandboxWith(smallWorld());
    const res = await twinFetch(sandbox, "/repos/acme/api/issues", {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: "Problems parsing JSON" });
  });

  it("tapes each call with Octokit's operation name and whether it changed the world", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 1 });
    await octokit.issues.update({ owner: "acme", repo: "api", issue_number: 1, state: "closed" });
    const tape = await tapeOf(sandbox);
    expect(tape.map((r) => [r.operation, r.mutated, r.fidelity])).toEqual([
      ["issues.get", false, "supported"],
      ["issues.update", true, "supported"],
    ]);
  });
});
