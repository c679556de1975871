// `npm run test:clients`: the `gh` command-line tool (Debian's `gh`, `apt-get install gh`) driving
// the GitHub twin of a sandbox. gh talks to one host; for the host `github.localhost` it uses
// plain http at http://api.github.localhost/ (REST) and http://api.github.localhost/graphql, as for
// a development instance of GitHub. A small forwarding proxy here (gh honours HTTP_PROXY for that
// host) maps those to the sandbox's REST mount (`…/api/v3/…`) and GraphQL (`…/api/graphql`).
// A gh that is not installed fails the test with the package to install.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "../node/mcp/helpers";

const GH = process.env.POME_CLIENTS_GH ?? "/usr/bin/gh";
const HOST = "github.localhost";

/** Forwards gh's requests for api.github.localhost to the sandbox's GitHub twin. */
function forwarder(apiUrl: () => string): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      try {
        const asked = new URL(req.url ?? "/", `http://${req.headers.host ?? "api.github.localhost"}`);
        if (asked.hostname !== `api.${HOST}`) {
          res.writeHead(502).end(`not forwarded: ${asked.hostname}`);
          return;
        }
        const target = asked.pathname === "/graphql" ? `${apiUrl()}/api/graphql` : `${apiUrl()}/api/v3${asked.pathname}${asked.search}`;
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers))
          if (typeof v === "string" && !["host", "proxy-connection", "connection", "content-length"].includes(k)) headers.set(k, v);
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        forwarded++;
        const answer = await fetch(target, { method: req.method, headers, body, redirect: "manual" });
        const out: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (!["content-encoding", "content-length", "transfer-encoding", "connection"].includes(k)) out[k] = v;
        });
        res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
      } catch (e) {
        res.writeHead(502).end(String(e));
      }
    });
  });
}

let proxy: Server;
let proxyUrl = "";
let current = "";
/** Requests the proxy forwarded: gh reached the twin through it. */
let forwarded = 0;
let config = "";

beforeAll(async () => {
  proxy = forwarder(() => current);
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  config = mkdtempSync(path.join(os.tmpdir(), "gh-config-"));
});

afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  rmSync(config, { recursive: true, force: true });
});

/** Runs gh against the current sandbox; its output and exit status. */
function gh(args: string[], token: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(GH, args, {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: config,
        GH_CONFIG_DIR: config,
        GH_HOST: HOST,
        GH_TOKEN: token,
        GH_ENTERPRISE_TOKEN: token,
        GH_PROMPT_DISABLED: "1",
        GH_NO_UPDATE_NOTIFIER: "1",
        NO_COLOR: "1",
        HTTP_PROXY: proxyUrl,
        http_proxy: proxyUrl,
        NO_PROXY: "",
        no_proxy: "",
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe("gh (Debian's gh) drives the GitHub twin", () => {
  it("reads the viewer and issues, files an issue, and asks GraphQL, through api.github.localhost", async () => {
    const probe = spawnSync(GH, ["--version"], { encoding: "utf8" });
    if (probe.status !== 0) throw new Error(`${GH} is not runnable: apt-get install gh\n${probe.stderr ?? ""}`);
    const sandbox = await createSandbox({ twins: ["github"] });
    current = sandbox.per_twin.github.api_url;
    const token = sandbox.provider_credentials.github.token;

    const user = await gh(["api", "user", "--jq", ".login"], token);
    expect(user.status, user.stderr).toBe(0);
    expect(user.stdout.trim()).not.toBe("");

    const issues = await gh(["api", "--paginate", "repos/acme/api/issues?state=all&per_page=1", "--jq", ".[].number"], token);
    expect(issues.status, issues.stderr).toBe(0);
    const numbers = issues.stdout.trim().split("\n").filter(Boolean);
    expect(numbers.length).toBeGreaterThan(1);

    const created = await gh(
      ["api", "-X", "POST", "repos/acme/api/issues", "-f", "title=Filed by gh", "-f", "body=From the gh smoke", "--jq", ".number"],
      token,
    );
    expect(created.status, created.stderr).toBe(0);
    const number = Number(created.stdout.trim());
    expect(number).toBeGreaterThan(0);

    const graphql = await gh(
      [
        "api",
        "graphql",
        "-f",
        'query=query($n: Int!) { repository(owner: "acme", name: "api") { issue(number: $n) { title } } }',
        "-F",
        `n=${number}`,
        "--jq",
        ".data.repository.issue.title",
      ],
      token,
    );
    expect(graphql.status, graphql.stderr).toBe(0);
    expect(graphql.stdout.trim()).toBe("Filed by gh");

    // The porcelain commands, whose GraphQL queries the twin's schema answers whole (gh 2.23).
    const filed = await gh(["issue", "create", "-R", "acme/api", "-t", "Filed by gh issue create", "-b", "Porcelain"], token);
    expect(filed.status, filed.stderr).toBe(0);
    const filedNumber = Number(/\/issues\/(\d+)/.exec(filed.stdout)?.[1]);
    const commented = await gh(["issue", "comment", String(filedNumber), "-R", "acme/api", "-b", "A comment from gh"], token);
    expect(commented.status, commented.stderr).toBe(0);
    const comments = await gh(["api", `repos/acme/api/issues/${filedNumber}/comments`, "--jq", ".[].body"], token);
    expect(comments.stdout.trim()).toBe("A comment from gh");

    const pulls = await gh(["pr", "list", "-R", "acme/api", "--state", "all", "--json", "number,title,isCrossRepository"], token);
    expect(pulls.status, pulls.stderr).toBe(0);
    const listed = JSON.parse(pulls.stdout) as { number: number; title: string; isCrossRepository: boolean }[];
    expect(listed.length).toBeGreaterThan(0);
    const prNumber = listed[0].number;
    const diff = await gh(["pr", "diff", String(prNumber), "-R", "acme/api"], token);
    expect(diff.status, diff.stderr).toBe(0);
    expect(diff.stdout).toMatch(/^diff --git /);
    const reviewed = await gh(["pr", "review", String(prNumber), "-R", "acme/api", "--comment", "-b", "Reviewed with gh"], token);
    expect(reviewed.status, reviewed.stderr).toBe(0);
    const reviews = await gh(["api", `repos/acme/api/pulls/${prNumber}/reviews`, "--jq", '.[] | [.state, .body] | join(" ")'], token);
    expect(reviews.stdout).toContain("COMMENTED Reviewed with gh");
    const repo = await gh(["repo", "view", "acme/api"], token);
    expect(repo.status, repo.stderr).toBe(0);
    expect(repo.stdout).toContain("name:\tacme/api");
    const open = await gh(["issue", "list", "-R", "acme/api", "--json", "number,title"], token);
    expect(open.status, open.stderr).toBe(0);
    expect((JSON.parse(open.stdout) as { number: number }[]).map((i) => i.number)).toContain(filedNumber);
    const bugs = await gh(["issue", "list", "-R", "acme/api", "--state", "all", "--label", "bug", "--json", "number"], token);
    expect(bugs.status, bugs.stderr).toBe(0);
    const rest = await gh(
      ["api", "repos/acme/api/issues?state=all&labels=bug&per_page=100", "--jq", ".[] | select(.pull_request == null) | .number"],
      token,
    );
    const restBugs = rest.stdout.trim().split("\n").filter(Boolean).map(Number);
    expect((JSON.parse(bugs.stdout) as { number: number }[]).map((i) => i.number).sort()).toEqual(restBugs.sort());

    // `gh issue view` (issueOrPullRequest with reactionGroups, projectCards, authorAssociation…),
    // plain and as JSON, against the REST answers over the same world.
    await gh(["api", "-X", "POST", `repos/acme/api/issues/${filedNumber}/reactions`, "-f", "content=heart"], token);
    const viewed = await gh(["issue", "view", String(filedNumber), "-R", "acme/api"], token);
    expect(viewed.status, viewed.stderr).toBe(0);
    expect(viewed.stdout).toContain("title:\tFiled by gh issue create");
    expect(viewed.stdout).toContain("state:\tOPEN");
    expect(viewed.stdout).toContain("comments:\t1");
    expect(viewed.stdout).toContain("Porcelain");
    const issueJson = await gh(
      ["issue", "view", String(filedNumber), "-R", "acme/api", "--json", "title,body,state,author,comments,reactionGroups,projectCards"],
      token,
    );
    expect(issueJson.status, issueJson.stderr).toBe(0);
    const restIssue = JSON.parse((await gh(["api", `repos/acme/api/issues/${filedNumber}`], token)).stdout) as {
      title: string;
      body: string;
      user: { login: string };
    };
    const restComments = JSON.parse((await gh(["api", `repos/acme/api/issues/${filedNumber}/comments`], token)).stdout) as {
      body: string;
      author_association: string;
    }[];
    const issue = JSON.parse(issueJson.stdout) as {
      title: string;
      body: string;
      state: string;
      author: { login: string };
      comments: { body: string; authorAssociation: string }[];
      reactionGroups: { content: string; users: { totalCount: number } }[];
      projectCards: unknown[];
    };
    expect(issue).toMatchObject({ title: restIssue.title, body: restIssue.body, state: "OPEN", author: { login: restIssue.user.login } });
    expect(issue.comments.map((c) => [c.body, c.authorAssociation])).toEqual(restComments.map((c) => [c.body, c.author_association]));
    expect(issue.reactionGroups).toContainEqual({ content: "HEART", users: { totalCount: 1 } });
    expect(issue.projectCards).toEqual([]);
    const viewedPr = await gh(["issue", "view", String(prNumber), "-R", "acme/api"], token);
    expect(viewedPr.status, viewedPr.stderr).toBe(0);

    // `gh pr view` (commits, reviews with authorAssociation and commit, statusCheckRollup…).
    const prView = await gh(["pr", "view", String(prNumber), "-R", "acme/api"], token);
    expect(prView.status, prView.stderr).toBe(0);
    const restPull = JSON.parse((await gh(["api", `repos/acme/api/pulls/${prNumber}`], token)).stdout) as {
      title: string;
      body: string;
      additions: number;
      deletions: number;
    };
    expect(prView.stdout).toContain(`title:\t${restPull.title}`);
    expect(prView.stdout).toContain(`additions:\t${restPull.additions}`);
    const prJson = await gh(
      ["pr", "view", String(prNumber), "-R", "acme/api", "--json", "title,body,state,commits,reviews,statusCheckRollup,reactionGroups"],
      token,
    );
    expect(prJson.status, prJson.stderr).toBe(0);
    const pr = JSON.parse(prJson.stdout) as {
      title: string;
      body: string;
      state: string;
      commits: { oid: string }[];
      reviews: { body: string; state: string; authorAssociation: string; commit: { oid: string } }[];
      statusCheckRollup: unknown[];
    };
    expect(pr).toMatchObject({ title: restPull.title, body: restPull.body, state: "OPEN" });
    const restCommits = JSON.parse((await gh(["api", `repos/acme/api/pulls/${prNumber}/commits`], token)).stdout) as { sha: string }[];
    expect(pr.commits.map((c) => c.oid)).toEqual(restCommits.map((c) => c.sha));
    const restReviews = JSON.parse((await gh(["api", `repos/acme/api/pulls/${prNumber}/reviews`], token)).stdout) as {
      body: string;
      state: string;
      author_association: string;
      commit_id: string;
    }[];
    expect(pr.reviews.map((r) => [r.body, r.state, r.authorAssociation, r.commit?.oid])).toEqual(
      restReviews.map((r) => [r.body, r.state, r.author_association, r.commit_id]),
    );
    const head = restCommits[restCommits.length - 1].sha;
    const restStatuses = JSON.parse((await gh(["api", `repos/acme/api/commits/${head}/status`], token)).stdout) as {
      statuses: unknown[];
    };
    const restChecks = JSON.parse((await gh(["api", `repos/acme/api/commits/${head}/check-runs`], token)).stdout) as {
      total_count: number;
    };
    expect(pr.statusCheckRollup.length).toBe(restStatuses.statuses.length + restChecks.total_count);
    expect(forwarded).toBeGreaterThan(0);

    const missing = await gh(["api", "repos/acme/no-such-repo"], token);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain("Not Found");
  });
});
