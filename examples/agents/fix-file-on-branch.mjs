#!/usr/bin/env node
// Reference agent for examples/tasks/fix-file-on-branch.md: branch from main, fix the README's
// install command and add a release note on the branch, open a pull request, tell the reporter.
import { decodeContent, githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "acme";
const repo = "cli";
const branch = "fix-install-command";

run(async () => {
  const gh = githubFromEnv();
  const { data: main } = await gh.git.getRef({ owner, repo, ref: "heads/main" });
  await gh.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha: main.object.sha });
  say(`created ${branch} at ${main.object.sha.slice(0, 7)}`);

  const { data: readme } = await gh.repos.getContent({ owner, repo, path: "README.md", ref: branch });
  const fixed = decodeContent(readme).replace("npm install acme-cli", "npm install @acme/cli");
  await gh.repos.createOrUpdateFileContents({
    owner,
    repo,
    branch,
    path: "README.md",
    sha: readme.sha,
    message: "Fix the install command in the README",
    content: Buffer.from(fixed).toString("base64"),
  });
  await gh.repos.createOrUpdateFileContents({
    owner,
    repo,
    branch,
    path: "changelog/unreleased/fix-install-command.md",
    message: "Add a release note for the install command fix",
    content: Buffer.from("- README: the install command now installs the published package, `@acme/cli`.\n").toString("base64"),
  });
  const { data: pull } = await gh.pulls.create({
    owner,
    repo,
    head: branch,
    base: "main",
    title: "Fix the install command in the README",
    body: "Fixes #3: the package is published as `@acme/cli`.",
  });
  await gh.issues.createComment({
    owner,
    repo,
    issue_number: 3,
    body: `A fix is on the branch \`${branch}\`, in pull request #${pull.number}.`,
  });
  say(`opened #${pull.number}`);
});
