import { describe, expect, it } from "vitest";
import { api, createSandbox, octokitFor, twinFetch } from "./helpers";

describe("the local team works out of the box", () => {
  it("answers GET /v1/me with the local key", async () => {
    const res = await api("/v1/me");
    expect(res.status).toBe(200);
    const body = await res.json<{ team: { slug: string }; api_key: { name: string } }>();
    expect(body.team.slug).toBe("local");
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
