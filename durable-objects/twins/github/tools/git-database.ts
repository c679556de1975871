// The git database: blobs, trees, commits and annotated tags, for writing several files in one commit.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { query, repoArgs, repoPath, seg, tool } from "./define";

const sha = (what: string) => z.string().min(1).describe(what);
const person = z
  .object({ name: z.string().min(1), email: z.string().min(1), date: z.string().optional() })
  .describe("A git identity: name, email and an optional ISO 8601 date");

export const gitDatabaseTools: readonly TwinTool[] = [
  tool({
    name: "create_blob",
    description: "Store file content as a git blob and get its SHA, to use in create_tree.",
    input: {
      ...repoArgs,
      content: z.string().describe("The content"),
      encoding: z.enum(["utf-8", "base64"]).optional().describe('How `content` is encoded (default "utf-8")'),
    },
    toRequest: ({ owner, repo, ...body }) => ({ method: "POST", path: repoPath({ owner, repo }, "/git/blobs"), body }),
  }),
  tool({
    name: "get_blob",
    description: "Get a git blob by SHA; its content comes base64-encoded.",
    input: { ...repoArgs, file_sha: sha("The blob SHA") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/git/blobs/${seg(a.file_sha)}`) }),
  }),
  tool({
    name: "create_tree",
    description:
      "Create a git tree. With base_tree (the tree SHA of the branch's head commit) the entries are laid over it; an entry with sha null deletes that path.",
    input: {
      ...repoArgs,
      base_tree: z.string().optional().describe("The tree to build on (get_git_commit's `tree.sha`)"),
      tree: z
        .array(
          z.object({
            path: z.string().min(1),
            mode: z.enum(["100644", "100755", "040000", "160000", "120000"]),
            type: z.enum(["blob", "tree", "commit"]).optional(),
            sha: z.string().nullable().optional(),
            content: z.string().optional(),
          }),
        )
        .describe("Entries: path, mode, type, and either sha (of a blob or tree; null deletes) or content"),
    },
    toRequest: ({ owner, repo, ...body }) => ({ method: "POST", path: repoPath({ owner, repo }, "/git/trees"), body }),
  }),
  tool({
    name: "get_tree",
    description: "List a git tree's entries by tree SHA, or by branch name or commit SHA; recursive lists every file.",
    input: {
      ...repoArgs,
      tree_sha: sha("A tree SHA, a branch name or a commit SHA"),
      recursive: z.boolean().optional().describe("List every entry of every subtree"),
    },
    readOnly: true,
    toRequest: (a) => ({
      method: "GET",
      path: repoPath(a, `/git/trees/${seg(a.tree_sha)}`),
      query: query({ recursive: a.recursive ? "1" : undefined }),
    }),
  }),
  tool({
    name: "create_git_commit",
    description: "Create a commit object from a tree and its parents (it moves no branch: update the ref after).",
    input: {
      ...repoArgs,
      message: z.string().min(1).describe("The commit message"),
      tree: sha("The tree SHA (from create_tree)"),
      parents: z.array(z.string()).optional().describe("Parent commit SHAs (usually the branch's head)"),
      author: person.optional(),
      committer: person.optional(),
    },
    toRequest: ({ owner, repo, ...body }) => ({ method: "POST", path: repoPath({ owner, repo }, "/git/commits"), body }),
  }),
  tool({
    name: "get_git_commit",
    description: "Get a commit object: its tree, parents, author, committer and message.",
    input: { ...repoArgs, commit_sha: sha("The commit SHA") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/git/commits/${seg(a.commit_sha)}`) }),
  }),
  tool({
    name: "create_tag_object",
    description: "Create an annotated tag object; then create the refs/tags/<tag> ref pointing at its SHA.",
    input: {
      ...repoArgs,
      tag: z.string().min(1).describe('The tag name, e.g. "v1.0.0"'),
      message: z.string().describe("The tag message"),
      object: sha("The SHA of the object tagged (usually a commit)"),
      type: z.enum(["commit", "tree", "blob"]).describe("The type of that object"),
      tagger: person.optional(),
    },
    toRequest: ({ owner, repo, ...body }) => ({ method: "POST", path: repoPath({ owner, repo }, "/git/tags"), body }),
  }),
  tool({
    name: "get_tag_object",
    description: "Get an annotated tag object by SHA.",
    input: { ...repoArgs, tag_sha: sha("The tag object's SHA") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/git/tags/${seg(a.tag_sha)}`) }),
  }),
];
