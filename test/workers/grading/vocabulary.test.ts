// Binding and rendering are one piece of code: every check renders a sentence that binds back to it.
import { describe, expect, it } from "vitest";
import { stripeChecks } from "../../../durable-objects/twins/stripe/checks";
import { githubChecks } from "../../../durable-objects/twins/github/checks";
import { bindSentence, exampleSentence, renderCheck } from "../../../workers/grading/binding";
import { canonicalJson, nearestTemplates, vocabularyDigest, vocabularyFor } from "../../../workers/grading/vocabulary";

const byId = (id: string) => {
  const check = githubChecks.find((c) => c.id === id);
  if (!check) throw new Error(id);
  return check;
};

describe("the GitHub vocabulary", () => {
  it("declares the twelve checks with the reference's templates", () => {
    expect(githubChecks.map((c) => `${c.id} ${c.template}`)).toEqual([
      "github.issue-exists Issue #{issue} exists in `{repo}`",
      "github.issue-state Issue #{issue} in `{repo}` is in state {state}",
      "github.issue-has-label Issue #{issue} in `{repo}` has the `{label}` label applied",
      "github.issue-exactly-one-label Issue #{issue} in `{repo}` has exactly one classification label, and it is `{label}`",
      "github.issue-assignee Issue #{issue} in `{repo}` is assigned to `{login}`",
      'github.issue-comment-contains A comment containing "{needle}" exists on issue #{issue} in `{repo}`',
      "github.no-new-labels No new labels were created in `{repo}`",
      "github.pr-state Pull request #{pr} in `{repo}` is {state}",
      "github.pr-review-exists A {review} review exists on pull request #{pr} in `{repo}`",
      "github.file-exists File `{path}` exists in `{repo}`",
      'github.commit-status Commit status "{context}" in `{repo}` is {state}',
      "github.no-unsupported-endpoint No unsupported endpoint was called",
    ]);
  });

  it("is what the grader reads for each twin", () => {
    expect(vocabularyFor("github").map((c) => c.id)).toEqual(githubChecks.map((c) => c.id));
    expect(vocabularyFor("stripe").map((c) => c.id)).toEqual(stripeChecks.map((c) => c.id));
  });

  it("has a stable sha256 digest of its canonical form", async () => {
    const digest = await vocabularyDigest("github", githubChecks);
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await vocabularyDigest("github", [...githubChecks])).toBe(digest);
    expect(await vocabularyDigest("github", githubChecks.slice(1))).not.toBe(digest);
  });

  it("serializes canonically with sorted keys", () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: "x" }] })).toBe('{"a":[{"c":"x","d":null}],"b":1}');
  });
});

describe("render and bind", () => {
  it.each(githubChecks.map((c) => [c.id, c] as const))("%s renders its example and binds it back with the same args", (_id, check) => {
    const args = Object.fromEntries(check.params.map((p) => [p.name, p.example]));
    const rendered = renderCheck(check, args);
    expect(rendered).toEqual({ ok: true, text: exampleSentence(check) });
    const bound = bindSentence(githubChecks, rendered.ok ? rendered.text : "");
    expect(bound?.check.id).toBe(check.id);
    expect(bound?.args).toEqual(args);
  });

  it("binds the reference's example sentence", () => {
    const bound = bindSentence(githubChecks, 'A comment containing "triaged" exists on issue #1 in `northwind/payments`');
    expect(bound).toMatchObject({
      check: { id: "github.issue-comment-contains" },
      args: { needle: "triaged", issue: "1", repo: "northwind/payments" },
    });
  });

  it("binds multi-word values the pattern accepts", () => {
    expect(bindSentence(githubChecks, "Pull request #12 in `acme/api` is not merged")?.args.state).toBe("not merged");
    expect(bindSentence(githubChecks, "Issue #1 in `acme/api` has the `good first issue` label applied")?.args.label).toBe(
      "good first issue",
    );
  });

  it("refuses a value outside its pattern, and inexact wording", () => {
    expect(bindSentence(githubChecks, "Issue #01 exists in `acme/api`")).toBeUndefined();
    expect(bindSentence(githubChecks, "Issue #1 in `acme/api` is in state merged")).toBeUndefined();
    expect(bindSentence(githubChecks, "Issue #1 exists in acme/api")).toBeUndefined();
    expect(bindSentence(githubChecks, "issue #1 exists in `acme/api`")).toBeUndefined();
  });

  it("names each problem of a render by its argument", () => {
    const result = renderCheck(byId("github.issue-has-label"), { issue: 1, repo: "acme", extra: "x" });
    expect(result).toEqual({
      ok: false,
      problems: [
        { path: "issue", message: 'Argument "issue" must be a string, got number' },
        { path: "repo", message: 'Argument "repo" does not match [A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+' },
        { path: "label", message: 'Missing argument "label" (for example "bug")' },
        { path: "extra", message: 'Unknown argument "extra" for github.issue-has-label' },
      ],
    });
  });

  it("refuses a value that would break the sentence apart", () => {
    expect(renderCheck(byId("github.issue-comment-contains"), { needle: 'say "hi"', issue: "1", repo: "a/b" }).ok).toBe(false);
    expect(renderCheck(byId("github.file-exists"), { path: "a`b", repo: "a/b" }).ok).toBe(false);
  });
});

describe("nearest templates", () => {
  it("ranks the template a near-miss sentence was meant to be first", () => {
    const nearest = nearestTemplates(githubChecks, "Issue #1 in acme/api has the bug label");
    expect(nearest[0]).toBe("github.issue-has-label — Issue #{issue} in `{repo}` has the `{label}` label applied");
    expect(nearest).toHaveLength(3);
  });
  it("ranks a pull request sentence to the pull request checks", () => {
    expect(nearestTemplates(githubChecks, "PR #4 in acme/api was merged", 1)[0]).toMatch(/^github\.pr-state — /);
  });
});
