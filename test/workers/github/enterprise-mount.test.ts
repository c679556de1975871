// GitHub Enterprise Server's paths: the REST API under /api/v3 and GraphQL at /api/graphql, so an
// enterprise-aware client pointed at a sandbox (`new Octokit({ baseUrl: <sandbox>/api/v3 })`, the
// gh tool with GH_HOST) reaches the same twin, and the tape reads as for github.com's paths.
import { SELF } from "cloudflare:test";
import { Octokit } from "@octokit/rest";
import { describe, expect, it } from "vitest";
import { ORIGIN, type CreatedSandbox } from "../helpers";
import { manyIssuesWorld, sandboxWith, smallWorld, tapeOf } from "./fixtures";

const selfFetch: typeof fetch = (input, init) => SELF.fetch(new Request(input as RequestInfo, init));
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** An Octokit configured as for a GitHub Enterprise Server host: `<host>/api/v3`. */
const enterpriseOctokit = (baseUrl: string, auth: string) =>
  new Octokit({ baseUrl: `${baseUrl}/api/v3`, auth, request: { fetch: selfFetch }, log: quiet });

const sandboxOctokit = (sandbox: CreatedSandbox) =>
  enterpriseOctokit(sandbox.per_twin.github.api_url, sandbox.provider_credentials.github.token);

describe("every REST route also answers under /api/v3", () => {
  it("reads and writes through an Octokit whose baseUrl ends in /api/v3", async () => {
    const { sandbox, octokit } = await sandboxWith(smallWorld());
    const ghes = sandboxOctokit(sandbox);
    const issue = (await ghes.issues.get({ owner: "acme", repo: "api", issue_number: 1 })).data;
    expect(issue).toMatchObject({ number: 1, title: "Requests time out" });
    const created = await ghes.issues.create({ owner: "acme", repo: "api", title: "Filed through /api/v3" });
    expect(created.status).toBe(201);
    expect((await octokit.issues.get({ owner: "acme", repo: "api", issue_number: created.data.number })).data.title).toBe(
      "Filed through /api/v3",
    );
    const tape = await tapeOf(sandbox);
    expect(tape.find((r) => r.path === "/api/v3/repos/acme/api/issues" && r.method === "POST")).toMatchObject({
      operation: "issues.create",
      status: 201,
      mutated: true,
      fidelity: "supported",
    });
  });

  it("pages with octokit.paginate and refuses like GitHub", async () => {
    const { sandbox } = await sandboxWith(manyIssuesWorld(45));
    const ghes = sandboxOctokit(sandbox);
    const all = await ghes.paginate(ghes.issues.listForRepo, { owner: "acme", repo: "big", per_page: 20 });
    expect(all).toHaveLength(45);
    const missing = await ghes.issues.get({ owner: "acme", repo: "big", issue_number: 999 }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, response: { data: { message: "Not Found" } } });
    const unknown = await ghes.request("GET /repos/{owner}/{repo}/no-such-thing", { owner: "acme", repo: "big" }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 501 });
    const tape = await tapeOf(sandbox);
    expect(tape.find((r) => r.path.endsWith("/no-such-thing"))).toMatchObject({ status: 501, fidelity: "unsupported" });
    expect(tape.find((r) => r.status === 404)).toMatchObject({ operation: "issues.get" });
  });

  it("serves GraphQL at /api/graphql, where Octokit sends it for an /api/v3 base URL", async () => {
    const { sandbox } = await sandboxWith(smallWorld());
    const ghes = sandboxOctokit(sandbox);
    const data = await ghes.graphql<{ viewer: { login: string } }>(`{ viewer { login } }`);
    expect(data.viewer.login).toBe("octo");
    expect((await tapeOf(sandbox)).at(-1)).toMatchObject({ path: "/api/graphql", operation: "viewer" });
  });

  it("answers on the origin's root too, routed by the provider credential", async () => {
    const { sandbox } = await sandboxWith(smallWorld());
    const ghes = enterpriseOctokit(ORIGIN, sandbox.provider_credentials.github.token);
    expect((await ghes.repos.get({ owner: "acme", repo: "api" })).data.full_name).toBe("acme/api");
    const data = await ghes.graphql<{ repository: { name: string } }>(`{ repository(owner: "acme", name: "api") { name } }`);
    expect(data.repository.name).toBe("api");
  });
});
