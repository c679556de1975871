// The twin's state functions, run on a booted world without HTTP.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Db, applyMigrations, twinMigrationList } from "../../../durable-objects/sql";
import { githubTwin } from "../../../durable-objects/twins/github";
import { defaultGithubSeed, parseGithubSeed } from "../../../durable-objects/twins/github/seed";
import { diffLines } from "../../../durable-objects/twins/github/store/diff";
import { closingIssueNumbers } from "../../../durable-objects/twins/github/store/pulls";
import { parseSearch } from "../../../durable-objects/twins/github/store/search";
import { findBranch, mergeBase, resolveRef, treeOf } from "../../../durable-objects/twins/github/store/git";
import { createIssue, findIssue, setIssueState } from "../../../durable-objects/twins/github/store/issues";
import { applyLabels, issueLabels } from "../../../durable-objects/twins/github/store/labels";
import { issueExtras } from "../../../durable-objects/twins/github/store/issue-extras";
import { findRepoByName } from "../../../durable-objects/twins/github/repos";
import { smallWorld } from "./fixtures";
import { inWorld } from "./world";

describe("line diffs read like git's", () => {
  it("writes a hunk with three lines of context", () => {
    const before = "a\nb\nc\nd\ne\nf\ng\nh\n";
    const after = "a\nb\nc\nd\nE\nf\ng\nh\n";
    expect(diffLines(before, after)).toEqual({ additions: 1, deletions: 1, patch: "@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h" });
  });

  it("counts a new file as additions from line 0", () => {
    expect(diffLines("", "x\ny\n")).toEqual({ additions: 2, deletions: 0, patch: "@@ -0,0 +1,2 @@\n+x\n+y" });
  });

  it("marks a missing final newline", () => {
    expect(diffLines("a\n", "a").patch).toBe("@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file");
  });

  it("splits far-apart changes into separate hunks", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const changed = [...lines];
    changed[1] = "X";
    changed[18] = "Y";
    const d = diffLines(`${lines.join("\n")}\n`, `${changed.join("\n")}\n`);
    expect(d.patch.match(/^@@/gm)).toHaveLength(2);
    expect(d.additions).toBe(2);
  });
});

describe("search queries parse like GitHub's", () => {
  it("splits qualifiers, negations, quoted values and free text", () => {
    const q = parseSearch(
      'repo:acme/api is:pr is:open label:"good first issue" -label:wontfix author:alice crash "exact phrase" sort:updated-asc',
    );
    expect(q).toMatchObject({
      repos: ["acme/api"],
      kind: "pull",
      state: "open",
      labels: ["good first issue"],
      notLabels: ["wontfix"],
      authors: ["alice"],
      terms: ["crash", "exact phrase"],
      sort: { by: "updated", order: "asc" },
    });
  });

  it("treats an unknown qualifier as text", () => {
    expect(parseSearch("frobnicate:>5 bug").terms).toEqual(["frobnicate:>5", "bug"]);
  });
});

describe("closing keywords", () => {
  it("finds the issues a description closes", () => {
    expect(closingIssueNumbers("Fixes #1, closes #7 and resolved: #9; mentions #3")).toEqual([1, 7, 9]);
    expect(closingIssueNumbers(null)).toEqual([]);
  });
});

describe("export(boot(seed)) equals the normalized seed", () => {
  it("round-trips a world with every kind of object", async () => {
    const raw = smallWorld({ topics: ["api"], private: true });
    await inWorld(raw, (w) => {
      expect(githubTwin.exportState(w.db)).toEqual(w.seed);
      const again = parseGithubSeed(githubTwin.exportState(w.db));
      expect(again.ok && again.seed).toEqual(w.seed);
    });
  });

  it("round-trips the default world", async () => {
    await inWorld(defaultGithubSeed(), (w) => expect(githubTwin.exportState(w.db)).toEqual(defaultGithubSeed()));
  });

  it("exports what the API changed, in the seed's own shape", async () => {
    await inWorld(smallWorld(), (w) => {
      w.call("POST", "/repos/acme/api/issues", { body: { title: "New", labels: ["fresh"], assignees: ["alice"] } });
      w.call("PUT", "/repos/acme/api/contents/NEW.md", { body: { message: "add", content: btoa("new\n") } });
      const state = githubTwin.exportState(w.db);
      const repo = state.repositories[0];
      expect(repo.issues.at(-1)).toMatchObject({
        number: 5,
        title: "New",
        labels: ["fresh"],
        assignees: ["alice"],
        user: "octo",
        state: "open",
      });
      expect(repo.labels.at(-1)).toMatchObject({ name: "fresh", color: "ededed" });
      expect(repo.branches[0].files.at(-1)).toEqual({ path: "NEW.md", content: "new\n" });
      // The exported state is itself a valid seed that boots the same world.
      const reparsed = parseGithubSeed(state);
      expect(reparsed.ok && reparsed.seed).toEqual(state);
    });
  });
});

describe("a sandbox booted before a migration keeps its world", () => {
  it("keeps every label and assignee when 0003 rebuilds the join tables without a rowid", async () => {
    const parsed = parseGithubSeed(smallWorld());
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const seed = parsed.seed;
    const stub = env.SANDBOX.get(env.SANDBOX.newUniqueId());
    await runInDurableObject(stub, (_instance, state) => {
      const { list, migrations } = twinMigrationList(githubTwin);
      // Storage as a sandbox created before 0003 holds it: booted under 0000 to 0002.
      applyMigrations(state.storage.sql, list, migrations.slice(0, 3));
      const db = new Db(state.storage.sql);
      // Today's boot writes the git-database structures of 0005 (tree modes, addressable trees);
      // they stand in place while it runs and are taken away again, so the ledger then applies
      // 0003 to 0005 in order over a world written before them.
      state.storage.sql.exec(migrations[5]?.sql ?? "");
      githubTwin.boot(db, seed, { now: () => Date.now() });
      state.storage.sql.exec(
        `ALTER TABLE gh_tree_entries DROP COLUMN mode; DROP TABLE gh_trees; ALTER TABLE gh_commits DROP COLUMN identity;
         DROP TABLE gh_tag_refs; DROP TABLE gh_tag_objects;`,
      );
      applyMigrations(state.storage.sql, list, migrations);
      expect(githubTwin.exportState(db)).toEqual(seed);
      const withoutRowid = db.all<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('gh_issue_labels', 'gh_issue_assignees') AND sql LIKE '%WITHOUT ROWID'",
      );
      expect(withoutRowid.map((t) => t.name).sort()).toEqual(["gh_issue_assignees", "gh_issue_labels"]);
    });
  });
});

describe("state functions", () => {
  it("creates issues with the next shared number and keeps the open counter", async () => {
    await inWorld(smallWorld(), (w) => {
      const repo = findRepoByName(w.db, "acme", "api");
      if (!repo) throw new Error("no repo");
      const s = { db: w.db, now: "2026-11-01T00:00:00Z", actor: "octo" };
      const issue = createIssue(s, repo, { title: "t", body: null, labels: ["bug"], assignees: [], milestone: null });
      expect(issue.number).toBe(5);
      expect(findRepoByName(w.db, "acme", "api")?.open_issues).toBe(4);
      setIssueState(s, issue, "closed", "not_planned");
      expect(findIssue(w.db, repo.id, 5)).toMatchObject({
        state: "closed",
        state_reason: "not_planned",
        closed_by: "octo",
        closed_at: s.now,
      });
      expect(findRepoByName(w.db, "acme", "api")?.open_issues).toBe(3);
    });
  });

  it("applies labels case-insensitively, once each, creating missing ones", async () => {
    await inWorld(smallWorld(), (w) => {
      const s = { db: w.db, now: "2026-11-01T00:00:00Z", actor: "octo" };
      const issue = findIssue(w.db, findRepoByName(w.db, "acme", "api")?.id ?? 0, 2);
      if (!issue) throw new Error("no issue");
      applyLabels(s, issue.repo_id, issue.id, ["BUG", "bug", "Shiny"], false);
      expect(issueLabels(w.db, issue.id).map((l) => [l.name, l.color])).toEqual([
        ["bug", "d73a4a"],
        ["Shiny", "ededed"],
      ]);
    });
  });

  it("reads one issue's labels and assignees as a page reads them", async () => {
    await inWorld(smallWorld(), (w) => {
      const s = { db: w.db, now: "2026-11-01T00:00:00Z", actor: "octo" };
      const repo = findRepoByName(w.db, "acme", "api");
      if (!repo) throw new Error("no repo");
      const issue = createIssue(s, repo, {
        title: "t",
        body: null,
        labels: ["zeta", "bug", "alpha"],
        assignees: ["bob", "alice"],
        milestone: null,
      });
      const ids = w.db.all<{ id: number }>("SELECT id FROM gh_issues WHERE repo_id = ? ORDER BY number", repo.id).map((r) => r.id);
      const page = issueExtras(w.db, ids);
      for (const id of ids) {
        const one = issueExtras(w.db, [id]);
        expect(one.labels.get(id)).toEqual(page.labels.get(id));
        expect(one.assignees.get(id)).toEqual(page.assignees.get(id));
      }
      expect(page.labels.get(issue.id)?.map((l) => l.name)).toEqual(["zeta", "bug", "alpha"]);
      expect(page.assignees.get(issue.id)).toEqual(["bob", "alice"]);
    });
  });

  it("resolves refs by branch, heads/ form, full and short sha", async () => {
    await inWorld(smallWorld(), (w) => {
      const repo = findRepoByName(w.db, "acme", "api");
      const main = repo && findBranch(w.db, repo.id, "main");
      if (!repo || !main) throw new Error("no main");
      for (const ref of ["main", "heads/main", "refs/heads/main", main.head_sha, main.head_sha.slice(0, 7)]) {
        expect(resolveRef(w.db, repo.id, ref)?.sha).toBe(main.head_sha);
      }
      expect(resolveRef(w.db, repo.id, "nope")).toBeUndefined();
      expect(treeOf(w.db, main.head_sha).map((e) => e.path)).toEqual(["README.md", "src/app.ts", "docs/guide.md"]);
      const feature = findBranch(w.db, repo.id, "feature");
      // Seeded branches are separate root commits: no shared history.
      expect(mergeBase(w.db, repo.id, main.head_sha, feature?.head_sha ?? "")).toBeNull();
    });
  });
});
