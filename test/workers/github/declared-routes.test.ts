// Every GitHub route declares its inputs once (durable-objects/twins/github/declare.ts, issue 37):
// the declaration refuses bad input in GitHub's own words naming the field, it is what
// /_pome/openapi.json lists, and the twin's MCP tools are derived from it.
import { describe, expect, it } from "vitest";
import { githubTwin } from "../../../durable-objects/twins/github";
import { githubRefusal } from "../../../durable-objects/twins/github/declare";
import { githubRoutes } from "../../../durable-objects/twins/github/routes";
import { githubTools } from "../../../durable-objects/twins/github/tools";
import type { InputProblem } from "../../../durable-objects/twins/kit/route";
import { twinFetch } from "../helpers";
import { failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

describe("a declared route refuses a wrong-typed field in GitHub's words, naming it, and changes nothing", () => {
  it("answers 422 Invalid request for a label color that is not a string (Octokit)", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const createLabel: string = "POST /repos/{owner}/{repo}/labels";
    const err = await failure(octokit.request(createLabel, { ...repo, name: "triage", color: 5 }));
    expect(err.status).toBe(422);
    expect(err.response.data.message).toBe("Invalid request.\n\nFor 'properties/color', 5 is not a string.");
    const labels = await octokit.issues.listLabelsForRepo(repo);
    expect(labels.data.map((l) => l.name)).toEqual(["bug", "enhancement"]);
  });

  it("names a nested field by its path, and a wrong list item by its list", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const createFile: string = "PUT /repos/{owner}/{repo}/contents/{path}";
    const nested = await failure(
      octokit.request(createFile, { ...repo, path: "x.md", message: "m", content: "eA==", committer: { name: "A", email: 7 } }),
    );
    expect(nested.response.data.message).toBe("Invalid request.\n\nFor 'properties/committer/email', 7 is not a string.");
    const updateIssue: string = "PATCH /repos/{owner}/{repo}/issues/{issue_number}";
    const item = await failure(octokit.request(updateIssue, { ...repo, issue_number: 1, assignees: ["bob", 3] }));
    expect(item.response.data.message).toBe("Invalid request.\n\nFor 'properties/assignees', [\"bob\",3] is not an array.");
  });

  it("keeps GitHub's Validation Failed for a value outside its set, and 404 for a path value of the wrong shape", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const state = await failure(octokit.issues.update({ ...repo, issue_number: 1, state: "done" as "open" }));
    expect(state.response.data).toMatchObject({
      message: "Validation Failed",
      errors: [{ resource: "Issue", field: "state", code: "invalid", value: "done" }],
    });
    const res = await twinFetch(sandbox, "/repos/acme/api/issues/one");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: "Not Found", status: "404" });
  });

  it("answers a missing repository's 404 before it reads the body, as GitHub resolves the path first", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const createLabel: string = "POST /repos/{owner}/{repo}/labels";
    const err = await failure(octokit.request(createLabel, { owner: "acme", repo: "nope", name: "triage", color: 5 }));
    expect(err.status).toBe(404);
    expect(err.response.data.message).toBe("Not Found");
  });

  it("stays lenient where GitHub is: a malformed page size or sort is ignored, not refused", async () => {
    const { sandbox } = await sandboxWith(smallWorld());
    const res = await twinFetch(sandbox, "/repos/acme/api/issues?per_page=abc&sort=sideways&state=everything");
    expect(res.status).toBe(200);
    expect((await res.json<{ number: number }[]>()).map((i) => i.number)).toEqual([4, 2, 1]);
  });
});

describe("GitHub's refusal of a declaration's first problem (pure)", () => {
  const problem = (p: Partial<InputProblem>): InputProblem => ({
    place: "body",
    path: [],
    code: "invalid_type",
    message: "",
    received: undefined,
    ...p,
  });
  const rules = { resource: "Issue", missingField: ["title"] };
  const body = (p: Partial<InputProblem>) => JSON.parse(githubRefusal(problem(p), rules).body) as Record<string, unknown>;

  it("words each kind of problem as GitHub does", () => {
    expect(body({ path: ["body"], received: 5, expected: "string" }).message).toBe(
      "Invalid request.\n\nFor 'properties/body', 5 is not a string.",
    );
    expect(body({ path: ["milestone"], received: null, expected: "number" }).message).toBe(
      "Invalid request.\n\nFor 'properties/milestone', nil is not an integer.",
    );
    expect(body({ path: ["body"] }).message).toBe('Invalid request.\n\n"body" wasn\'t supplied.');
    expect(body({ path: ["title"], received: "" })).toMatchObject({
      message: "Validation Failed",
      errors: [{ resource: "Issue", code: "missing_field", field: "title" }],
    });
    expect(body({ path: ["state"], code: "invalid_value", received: "done" })).toMatchObject({
      errors: [{ resource: "Issue", field: "state", code: "invalid", value: "done" }],
    });
    expect(githubRefusal(problem({ path: [], received: [] }), rules).status).toBe(400);
    expect(githubRefusal(problem({ place: "path", path: ["issue_number"], received: "x" }), rules).status).toBe(404);
    expect(body({ place: "query", path: ["q"], received: "" })).toMatchObject({
      errors: [{ resource: "Issue", field: "q", code: "missing" }],
    });
  });
});

describe("/_pome/openapi.json lists each declared route's parameters and request body", () => {
  type Operation = {
    operationId: string;
    parameters?: { name: string; in: string; required: boolean; description?: string }[];
    requestBody?: { required: boolean; content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  };

  it("documents the issue, comment, search and by-id routes from their declarations", async () => {
    const { sandbox } = await sandboxWith(smallWorld());
    const doc = await (await twinFetch(sandbox, "/_pome/openapi.json")).json<{ paths: Record<string, Record<string, Operation>> }>();
    const list = doc.paths["/repos/{owner}/{repo}/issues"]?.get;
    expect(list?.parameters?.map((p) => [p.name, p.in, p.required])).toEqual(
      expect.arrayContaining([
        ["owner", "path", true],
        ["repo", "path", true],
        ["state", "query", false],
        ["labels", "query", false],
        ["per_page", "query", false],
      ]),
    );
    const create = doc.paths["/repos/{owner}/{repo}/issues"]?.post;
    const createSchema = create?.requestBody?.content["application/json"]?.schema;
    expect(Object.keys(createSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(["title", "body", "labels", "assignees", "milestone"]),
    );
    expect(createSchema?.required).toEqual(["title"]);
    const comment = doc.paths["/repos/{owner}/{repo}/issues/{issue_number}/comments"]?.post;
    expect(comment?.parameters?.find((p) => p.name === "issue_number")).toMatchObject({ in: "path", required: true });
    expect(comment?.requestBody?.content["application/json"]?.schema.required).toEqual(["body"]);
    const search = doc.paths["/search/issues"]?.get;
    expect(search?.parameters?.find((p) => p.name === "q")).toMatchObject({ in: "query", required: true });
    // The /repositories/{id} copy names the id instead of owner and repo.
    const byId = doc.paths["/repositories/{repository_id}/issues/{issue_number}"]?.get;
    expect(byId?.parameters?.map((p) => p.name)).toEqual(["repository_id", "issue_number"]);
    expect(doc.paths["/graphql"]?.post?.requestBody?.content["application/json"]?.schema.required).toEqual(["query"]);
  });
});

describe("every GitHub route carries its declaration, and the tools come from them", () => {
  it("declares every route, the /api/v3 mount by the path it runs", () => {
    expect(githubTwin.routes.filter((r) => !r.declaration).map((r) => r.operation)).toEqual([]);
  });

  it("derives each route's tool once: the /repositories/{id} copies carry none", () => {
    const byId = githubRoutes.filter((r) => r.pattern.startsWith("/repositories/"));
    expect(byId.length).toBeGreaterThan(50);
    expect(byId.every((r) => r.declaration && !r.declaration.tool)).toBe(true);
    const declaredTools = githubRoutes.flatMap((r) => (r.declaration?.tool ? [r.declaration.tool.name] : []));
    expect(new Set(declaredTools).size).toBe(declaredTools.length);
    const names = new Set(githubTools.map((t) => t.name));
    for (const name of declaredTools) expect(names.has(name), name).toBe(true);
  });
});
