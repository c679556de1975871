import { describe, expect, it } from "vitest";
import { twinFetch } from "../helpers";
import { APP_MAIN, failure, sandboxWith, smallWorld } from "./fixtures";

/** acme/api (smallWorld) plus acme/web (private, TypeScript, topics) and alice's archived dotfiles. */
function searchWorld() {
  const world = smallWorld({ topics: ["api", "http"], created_at: "2025-06-01T00:00:00Z" });
  const repos = world.repositories as Record<string, unknown>[];
  repos.push(
    {
      owner: "acme",
      name: "web",
      description: "The web front end",
      private: true,
      topics: ["frontend"],
      created_at: "2026-02-01T00:00:00Z",
      branches: [
        {
          name: "main",
          files: [
            { path: "src/main.tsx", content: "export function App() {\n  return fetchTimeout();\n}\n" },
            { path: "src/util.ts", content: "export const fetchTimeout = () => 5000;\n" },
            { path: "README.md", content: "# web\n\nThe dashboard for the api.\n" },
          ],
        },
      ],
      labels: [
        { name: "bug", description: "Something is broken" },
        { name: "defect" },
        { name: "needs triage", description: "Not looked at yet: maybe a bug" },
      ],
    },
    {
      owner: "alice",
      name: "dotfiles",
      description: "Shell settings",
      archived: true,
      created_at: "2024-03-01T00:00:00Z",
      branches: [{ name: "main", files: [{ path: "install.sh", content: "#!/bin/sh\necho timeout\n" }] }],
    },
  );
  return world;
}

const names = (items: { full_name?: string; path?: string; login?: string; name?: string | null }[]) =>
  items.map((i) => i.full_name ?? i.path ?? i.login ?? i.name);

describe("code search finds text in files at each repository's default branch", () => {
  it("finds files by content and path, scoped by repo:, org:, user:, path:, filename:, extension: and language:", async () => {
    const { octokit } = await sandboxWith(searchWorld());
    const paths = async (q: string) => (await octokit.search.code({ q })).data.items.map((i) => `${i.repository.full_name}:${i.path}`);
    expect(await paths("timeoutMs")).toEqual(["acme/api:src/app.ts"]);
    expect(await paths("timeout")).toEqual([
      "acme/api:src/app.ts",
      "acme/web:src/main.tsx",
      "acme/web:src/util.ts",
      "alice/dotfiles:install.sh",
    ]);
    expect(await paths("timeout org:acme extension:ts")).toEqual(["acme/api:src/app.ts", "acme/web:src/util.ts"]);
    expect(await paths("timeout user:alice")).toEqual(["alice/dotfiles:install.sh"]);
    expect(await paths("timeout repo:acme/web language:tsx")).toEqual(["acme/web:src/main.tsx"]);
    expect(await paths("timeout language:typescript")).toEqual(["acme/api:src/app.ts", "acme/web:src/util.ts"]);
    expect(await paths("guide in:path")).toEqual(["acme/api:docs/guide.md"]);
    expect(await paths("api filename:README.md")).toEqual(["acme/api:README.md", "acme/web:README.md"]);
    expect(await paths("export path:src repo:acme/web")).toEqual(["acme/web:src/main.tsx", "acme/web:src/util.ts"]);
    expect(await paths("echo path:/")).toEqual(["alice/dotfiles:install.sh"]);
  });

  it("reads only the default branch: a file that exists on another branch is not found", async () => {
    const { octokit } = await sandboxWith(searchWorld());
    // src/new.ts exists only on acme/api's `feature` branch.
    expect((await octokit.search.code({ q: "export repo:acme/api filename:new.ts" })).data.total_count).toBe(0);
  });

  it("answers with items whose url, git_url and repository the twin serves", async () => {
    const { octokit, sandbox } = await sandboxWith(searchWorld());
    const { data } = await octokit.search.code({ q: "timeoutMs repo:acme/api" });
    expect(data).toMatchObject({ total_count: 1, incomplete_results: false });
    const [item] = data.items;
    expect(item).toMatchObject({ name: "app.ts", path: "src/app.ts", score: 1, repository: { full_name: "acme/api" } });
    const viaUrl = await twinFetch(sandbox, item.url.slice(sandbox.per_twin.github.api_url.length));
    expect(viaUrl.status).toBe(200);
    expect(Buffer.from((await viaUrl.json<{ content: string }>()).content, "base64").toString()).toBe(APP_MAIN);
    const blob = await twinFetch(sandbox, item.git_url.slice(sandbox.per_twin.github.api_url.length));
    expect((await blob.json<{ sha: string }>()).sha).toBe(item.sha);
  });

  it("adds text_matches when asked with the text-match media type", async () => {
    const { octokit } = await sandboxWith(searchWorld());
    const { data } = await octokit.search.code({
      q: "timeoutMs repo:acme/api",
      headers: { accept: "application/vnd.github.text-match+json" },
    });
    const [match] = data.items[0].text_matches ?? [];
    expect(match).toMatchObject({ object_type: "FileContent", property: "content", fragment: "export const timeoutMs = 10_000;\n" });
    expect(match.matches).toEqual([{ text: "timeoutMs", indices: [13, 22] }]);
    const plain = await octokit.search.code({ q: "timeoutMs repo:acme/api" });
    expect(plain.data.items[0]).not.toHaveProperty("text_matches");
  });

  it("refuses a query of qualifiers alone, and a repository that does not exist, with GitHub's 422", async () => {
    const { octokit } = await sandboxWith(searchWorld());
    const alone = await failure(octokit.search.code({ q: "language:go repo:acme/api" }));
    expect(alone.status).toBe(422);
    expect(alone.response.data.errors).toEqual([expect.objectContaining({ resource: "Search", field: "q", code: "invalid" })]);
    const unknown = await failure(octokit.search.code({ q: "x repo:acme/nope" }));
    expect(unknown.status).toBe(422);
  });
});

describe("repository search reads GitHub's qualifiers", () => {
  it("matches name, description and topics by default, and the README with in:readme", async () => {
    const { octokit } = await sandboxWith(searchWorld());
    const found = async (q: string, sort?: "updated") => names((await octokit.search.repos({ q, sort })).data.items);
    expect(await found("web")).toEqual(["acme/web"]);
    expect(await found("shell")).toEqual(["alice/dotfiles"]);
    expect(await found("frontend")).toEqual(["acme/web"]);
    expect(await found("dashboard")).toEqual([]);
    expect(await found("dashboard in:readme")).toEqual(["acme/web"]);
    expect(await found("api in:name")).toEqual(["acme/api"]);
  });

  it("filters by owner, visibility, topic, language, archived and creation date ranges", async () => {
    const { octokit } = await sandboxWith(searchWorld());
    const found = async (q: string) => names((await octokit.search.repos({ q, sort: "updated", order: "asc" })).data.items).sort();
    expect(await found("org:acme")).toEqual(["acme/api", "acme/web"]);
    expect(await found("user:alice")).toEqual(["alice/dotfiles"]);
    expect(await found("is:private")).toEqual(["acme/web"]);
    expect(await found("topic:http")).toEqual(["acme/api"]);
    // acme/web holds more TSX than TypeScript: its primary language is TSX, as Linguist names it.
    expect(await found("language:typescript")).toEqual(["acme/api"]);
    expect(await found("language:tsx")).toEqual(["acme/web"]);
    expect(await found("language:shell")).toEqual(["alice/dotfiles"]);
    expect(await found("archived:true")).toEqual(["alice/dotfiles"]);
    expect(await found("archived:false org:acme")).toEqual(["acme/api", "acme/web"]);
    expect(await found("created:>=2025-01-01")).toEqual(["acme/api", "acme/web"]);
    expect(await found("created:2025-01-01..2025-12-31")).toEqual(["acme/api"]);
    expect(await found("created:<2025-06-01")).toEqual(["alice/dotfiles"]);
    expect(await found("created:<=2025-06-01")).toEqual(["acme/api", "alice/dotfiles"]);
    expect(await found("stars:>0")).toEqual([]);
    expect(await found("stars:0 topics:>=2")).toEqual(["acme/api"]);
    expect(await found("fork:only")).toEqual([]);
  });

  it("refuses an owner that does not exist with GitHub's 422", async () => {
    const { octokit } = await sandboxWith(searchWorld());
    expect((await failure(octokit.search.repos({ q: "api user:nobody-here" }))).status).toBe(422);
  });
});

describe("user search reads GitHub's qualifiers", () => {
  it("matches login and email by default, names with in:name, and filters by type and repository count", async () => {
    const { octokit } = await sandboxWith(searchWorld());
    const found = async (q: string) => names((await octokit.search.users({ q })).data.items);
    expect(await found("alice")).toEqual(["alice"]);
    expect(await found("example.com")).toEqual(["alice"]);
    expect(await found("smith")).toEqual([]);
    expect(await found("smith in:name")).toEqual(["alice"]);
    expect(await found("acme type:org")).toEqual(["acme"]);
    expect(await found("acme type:user")).toEqual([]);
    expect(await found("type:user repos:>=1")).toEqual(["alice"]);
    expect(await found("type:org repos:0")).toEqual([]);
    const { data } = await octokit.search.users({ q: "bob" });
    expect(data.items[0]).toMatchObject({ login: "bob", type: "User", score: 1 });
  });
});

describe("commit search reads the default branch's history", () => {
  it("finds commits by message, repository, author and author date", async () => {
    const { octokit } = await sandboxWith(searchWorld());
    await octokit.repos.createOrUpdateFileContents({
      owner: "acme",
      repo: "api",
      path: "CHANGELOG.md",
      message: "Document the timeout fix",
      content: Buffer.from("# Changes\n").toString("base64"),
      author: { name: "Alice Smith", email: "alice@example.com", date: "2026-03-01T12:00:00Z" },
    });
    const messages = async (q: string) => (await octokit.search.commits({ q })).data.items.map((i) => i.commit.message);
    expect(await messages("timeout repo:acme/api")).toEqual(["Document the timeout fix"]);
    expect(await messages("repo:acme/api author:alice")).toEqual(["Document the timeout fix"]);
    expect(await messages("repo:acme/api author-date:>2026-02-01")).toEqual(["Document the timeout fix"]);
    expect(await messages('repo:acme/api author-name:"Alice Smith"')).toEqual(["Document the timeout fix"]);
    expect(await messages("repo:acme/api author:bob")).toEqual([]);
    const { data } = await octokit.search.commits({ q: "timeout repo:acme/api" });
    expect(data.items[0]).toMatchObject({ repository: { full_name: "acme/api" }, author: { login: "alice" }, score: 1 });
  });
});

describe("label search finds a repository's labels by name and description", () => {
  it("finds labels matching any word, and refuses an unknown repository with 404", async () => {
    const { octokit } = await sandboxWith(searchWorld());
    const web = (await octokit.repos.get({ owner: "acme", repo: "web" })).data;
    const { data } = await octokit.search.labels({ repository_id: web.id, q: "bug defect" });
    expect(names(data.items)).toEqual(["bug", "defect", "needs triage"]);
    expect(data.items[0]).toMatchObject({ name: "bug", color: "ededed", default: false, score: 1 });
    expect((await failure(octokit.search.labels({ repository_id: 999_999, q: "bug" }))).status).toBe(404);
  });
});

describe("topic search lists the topics the world's repositories carry", () => {
  it("finds topics by name with how many repositories carry them", async () => {
    const { octokit } = await sandboxWith(searchWorld());
    const { data } = await octokit.search.topics({ q: "front" });
    expect(data.total_count).toBe(1);
    expect(data.items[0]).toMatchObject({ name: "frontend", featured: false, curated: false, score: 1, repository_count: 1 });
  });
});
