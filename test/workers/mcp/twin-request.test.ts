import { describe, expect, it } from "vitest";
import { githubTools } from "../../../durable-objects/twins/github/tools";
import type { TwinTool } from "../../../durable-objects/twins/types";
import { examineeLaunch, type CreatedSandbox } from "../../../workers/mcp/launch";
import { toolResultFor, twinRequestFor } from "../../../workers/mcp/twin";

const tool = (name: string): TwinTool => {
  const found = githubTools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};
const ctx = { authorization: "Bearer eyJ.token", baseUrl: "http://pome.test/github/s/ses_x" };

describe("a tool call becomes the twin request its REST twin would see", () => {
  it("carries the caller's credential, a JSON body and the mcp transport", () => {
    const req = twinRequestFor(tool("create_comment"), { owner: "acme", repo: "api", issue_number: 3, body: "Hi" }, ctx);
    expect(req).toMatchObject({
      method: "POST",
      path: "/repos/acme/api/issues/3/comments",
      query: "",
      body: '{"body":"Hi"}',
      baseUrl: ctx.baseUrl,
      transport: "mcp",
    });
    expect(req.headers.authorization).toBe(ctx.authorization);
    expect(req.headers["content-type"]).toMatch(/^application\/json/);
  });

  it("sends reads with a query string and no body", () => {
    const req = twinRequestFor(tool("list_issues"), { owner: "acme", repo: "api", state: "closed", labels: "a b" }, ctx);
    expect(req).toMatchObject({ method: "GET", query: "state=closed&labels=a+b", body: "" });
    expect(req.headers["content-type"]).toBeUndefined();
  });
});

describe("the twin's answer becomes the tool result", () => {
  it("returns the vendor's JSON as text", () => {
    expect(toolResultFor({ status: 200, headers: {}, body: '{"number":1}' })).toEqual({
      content: [{ type: "text", text: '{"number":1}' }],
    });
  });

  it("marks a 4xx as an error carrying the vendor's error body", () => {
    const body = '{"message":"Not Found","status":"404"}';
    expect(toolResultFor({ status: 404, headers: {}, body })).toEqual({ content: [{ type: "text", text: body }], isError: true });
  });

  it("says a bodiless success succeeded", () => {
    expect(toolResultFor({ status: 204, headers: {}, body: "" }).isError).toBeUndefined();
  });
});

describe("the examinee's launch spec", () => {
  const sandbox: CreatedSandbox = {
    session_id: "ses_abc",
    expires_at: "2030-01-01T00:00:00.000Z",
    agent_token: "eyJtoken",
    twins: ["github"],
    per_twin: { github: { api_url: "http://h/github/s/ses_abc", mcp_url: "http://h/github/s/ses_abc/mcp", openapi_url: "http://h/o" } },
    provider_credentials: { github: { token: "github_pat_x", header: "Authorization", scheme: "Bearer" } },
  };

  const task = { prompt: "Triage issue 1", name: "Triage", groupId: "grp_abcdef", trial: 2, trials: 3 };

  it("puts every URL and credential in the environment `pome run` also sets", () => {
    const launch = examineeLaunch(sandbox, task, "rest");
    expect(launch.env).toEqual({
      POME_AUTH_TOKEN: "eyJtoken",
      POME_SESSION_ID: "ses_abc",
      POME_EXPIRES_AT: "2030-01-01T00:00:00.000Z",
      POME_TWINS: "github",
      POME_GITHUB_REST_URL: "http://h/github/s/ses_abc",
      POME_GITHUB_MCP_URL: "http://h/github/s/ses_abc/mcp",
      POME_GITHUB_OPENAPI_URL: "http://h/o",
      POME_GITHUB_TOKEN: "github_pat_x",
      POME_TASK_PROMPT: "Triage issue 1",
      POME_TASK_NAME: "Triage",
      POME_GROUP_ID: "grp_abcdef",
      POME_TRIAL: "2",
      POME_TRIALS: "3",
    });
    expect(launch.rest_urls).toEqual({ github: "http://h/github/s/ses_abc" });
  });

  it("names one MCP server per twin, authorized by the agent token", () => {
    expect(examineeLaunch(sandbox, task, "mcp").mcp_servers).toEqual([
      { name: "pome-github", type: "url", url: "http://h/github/s/ses_abc/mcp", headers: { Authorization: "Bearer eyJtoken" } },
    ]);
  });
});
