#!/usr/bin/env node
// A naive agent for examples/tasks/fix-file-on-branch.md: it fixes the README straight on main,
// with no branch, no release note and no pull request, and tells the reporter it is fixed. The
// task must fail it.
import { decodeContent, githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "acme";
const repo = "cli";

run(async () => {
  const gh = githubFromEnv();
  const { data: readme } = await gh.repos.getContent({ owner, repo, path: "README.md", ref: "main" });
  const fixed = decodeContent(readme).replace("npm install acme-cli", "npm install @acme/cli");
  await gh.repos.createOrUpdateFileContents({
    owner,
    repo,
    branch: "main",
    path: "README.md",
    sha: readme.sha,
    message: "Fix the install command",
    content: Buffer.from(fixed).toString("base64"),
  });
  await gh.issues.createComment({ owner, repo, issue_number: 3, body: "Fixed on main, thanks!" });
  say("fixed the README on main");
});
