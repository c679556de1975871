// What links rows across repositories and teams survives export and boot: the teams asked to
// review a pull request, and the numbers a transferred issue had. A team member's review answers
// its team's request; GraphQL's issue(number:) does not follow a transfer, as on GitHub.
import { describe, expect, it } from "vitest";
import { parseGithubSeed } from "../../../durable-objects/twins/github/seed";
import { twinFetch } from "../helpers";
import { sandboxWith, smallWorld, stateOf } from "./fixtures";

type Data = { readonly [key: string]: Data } & readonly Data[] & string;
const api = { owner: "acme", repo: "api" };

/** smallWorld with acme as an organization whose Backend team (octo, the sandbox's user, in it) can push to api, and a second repository. */
function linkedWorld() {
  const world = smallWorld() as ReturnType<typeof smallWorld> & { organizations?: unknown[]; repositories: Record<string, unknown>[] };
  world.organizations = [
    {
      login: "acme",
      members: ["alice"],
      teams: [
        { name: "Backend", members: ["octo"], repositories: [{ name: "api", permission: "push" }] },
        { name: "Docs", members: ["alice"], repositories: [{ name: "api" }] },
      ],
    },
  ];
  world.repositories.push({ owner: "acme", name: "web", branches: [{ name: "main" }], issues: [{ number: 1, title: "One" }] });
  return world;
}

async function transferApiIssueOne(octokit: Awaited<ReturnType<typeof sandboxWith>>["octokit"]) {
  const ids = await octokit.graphql<Data>(`{
    api: repository(owner: "acme", name: "api") { issue(number: 1) { id } }
    web: repository(owner: "acme", name: "web") { id }
  }`);
  await octokit.graphql(`mutation($i: ID!, $r: ID!) { transferIssue(input: { issueId: $i, repositoryId: $r }) { issue { number } } }`, {
    i: ids.api.issue.id,
    r: ids.web.id,
  });
}

describe("team review requests and old issue numbers round-trip through export and boot", () => {
  it("boots the export of a world with a team asked to review and a transferred issue into the same answers", async () => {
    const first = await sandboxWith(linkedWorld());
    await first.octokit.pulls.requestReviewers({ ...api, pull_number: 4, team_reviewers: ["backend", "docs"] });
    await transferApiIssueOne(first.octokit);
    const exported = await stateOf<{
      repositories: { name: string; issues: { number: number; moved_from: unknown[] }[]; pulls: { requested_teams: string[] }[] }[];
    }>(first.sandbox);
    const web = exported.repositories.find((r) => r.name === "web");
    expect(web?.issues.find((i) => i.number === 2)?.moved_from).toEqual([{ repository: "acme/api", number: 1 }]);
    expect(exported.repositories.find((r) => r.name === "api")?.pulls[0]?.requested_teams).toEqual(["backend", "docs"]);

    const second = await sandboxWith(exported);
    expect(await stateOf(second.sandbox)).toEqual(exported);
    const listed = await second.octokit.pulls.listRequestedReviewers({ ...api, pull_number: 4 });
    expect(listed.data.teams.map((t) => t.slug)).toEqual(["backend", "docs"]);
    const raw = await twinFetch(second.sandbox, "/repos/acme/api/issues/1", { redirect: "manual" });
    expect(raw.status).toBe(301);
    const followed = await second.octokit.issues.get({ ...api, issue_number: 1 });
    expect(followed.data).toMatchObject({ number: 2, title: "Requests time out" });
    // The old number is not handed out again.
    const created = await second.octokit.issues.create({ ...api, title: "New" });
    expect(created.data.number).toBe(5);
  });

  it("refuses a seed naming a team without access or an old number still in use", () => {
    const world = linkedWorld();
    const pulls = (world.repositories[0] as { pulls: Record<string, unknown>[] }).pulls;
    pulls[0] = { ...pulls[0], requested_teams: ["nobody"] };
    const issues = (world.repositories[1] as { issues: Record<string, unknown>[] }).issues;
    issues[0] = { ...issues[0], moved_from: [{ repository: "acme/api", number: 2 }] };
    const parsed = parseGithubSeed(world);
    expect(parsed.ok).toBe(false);
    const paths = parsed.ok ? [] : parsed.issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining(["repositories[0].pulls[0].requested_teams[0]", "repositories[1].issues[0].moved_from[0].number"]),
    );
  });
});

describe("a team member's review answers the team's review request", () => {
  it("takes the reviewer's teams off requested_teams and leaves the other teams asked", async () => {
    const { octokit } = await sandboxWith(linkedWorld());
    await octokit.pulls.requestReviewers({ ...api, pull_number: 4, team_reviewers: ["backend", "docs"] });
    await octokit.pulls.createReview({ ...api, pull_number: 4, event: "COMMENT", body: "Looks fine" });
    const { data } = await octokit.pulls.get({ ...api, pull_number: 4 });
    expect(data.requested_teams?.map((t) => t.slug)).toEqual(["docs"]);
    const events = await octokit.issues.listEvents({ ...api, issue_number: 4 });
    expect(events.data.filter((e) => e.event === "review_request_removed")).toHaveLength(0);
  });

  it("does so only when the pending review is submitted", async () => {
    const { octokit } = await sandboxWith(linkedWorld());
    await octokit.pulls.requestReviewers({ ...api, pull_number: 4, team_reviewers: ["backend"] });
    const pending = await octokit.pulls.createReview({ ...api, pull_number: 4, body: "draft" });
    expect((await octokit.pulls.listRequestedReviewers({ ...api, pull_number: 4 })).data.teams.map((t) => t.slug)).toEqual(["backend"]);
    await octokit.pulls.submitReview({ ...api, pull_number: 4, review_id: pending.data.id, event: "COMMENT", body: "done" });
    expect((await octokit.pulls.listRequestedReviewers({ ...api, pull_number: 4 })).data.teams).toEqual([]);
  });
});

describe("GraphQL's issue(number:) on a transferred issue's old number", () => {
  it("answers NOT_FOUND as for a number that never existed, while REST redirects", async () => {
    const { octokit } = await sandboxWith(linkedWorld());
    await transferApiIssueOne(octokit);
    const err = await octokit.graphql(`{ repository(owner: "acme", name: "api") { issue(number: 1) { number } } }`).then(
      () => undefined,
      (e: unknown) => e as { errors: { type: string; message: string; path: string[] }[]; data: Data },
    );
    expect(err?.errors).toEqual([
      expect.objectContaining({
        type: "NOT_FOUND",
        message: "Could not resolve to an Issue with the number of 1.",
        path: ["repository", "issue"],
      }),
    ]);
    expect(err?.data).toEqual({ repository: { issue: null } });
    const moved = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "web") { issue(number: 2) { title } } }`);
    expect(moved.repository.issue.title).toBe("Requests time out");
  });
});
