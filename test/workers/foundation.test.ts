import { describe, expect, it } from "vitest";
import { DEFAULT_TWIN, TWIN_IDS } from "../../durable-objects/twins/registry";
import { api, createSandbox, octokitFor, twinFetch } from "./helpers";

describe("the local team works out of the box", () => {
  it("answers GET /v1/me with the local key", async () => {
    const res = await api("/v1/me");
    expect(res.status).toBe(200);
    const body = await res.json<{ team: { slug: string }; api_key: { name: string } }>();
    expect(body.team.slug).toBe("local");
  });

  it("lists the registry's twins at GET /v1/twins, with the default a task gets when it names none", async () => {
    const res = await api("/v1/twins");
    expect(res.status).toBe(200);
    const body = await res.json<{ default: string; twins: { id: string; name: string }[] }>();
    expect(body.default).toBe(DEFAULT_TWIN);
    expect(body.twins.map((t) => t.id)).toEqual(TWIN_IDS);
    expect(body.twins.every((t) => t.name.length > 0)).toBe(true);
    expect((await api("/v1/twins", { key: null })).status).toBe(401);
  });
});

describe("a sandbox runs the GitHub twin end to end", () => {
  it("boots the default world and answers Octokit", async () => {
    const sandbox = await createSandbox();
    const octokit = octokitFor(sandbox);
    const { data: repo } = await octokit.repos.get({ owner: "acme", repo: "api" });
    expect(repo.full_name).toBe("acme/api");
    const tape = await (await twinFetch(sandbox, "/_pome/events")).json<{ seq: number; operation: string }[]>();
    expect(tape.map((r) => [r.seq, r.operation])).toEqual([[1, "repos.get"]]);
  });
});
