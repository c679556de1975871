// Releases and tags.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { bodyOf, pageArgs, query, repoArgs, repoPath, seg, tool } from "./define";

const releaseId = z.number().int().positive().describe("The release's id");
const releaseFields = {
  target_commitish: z.string().optional().describe("Branch or commit the tag is made at (default: the default branch)"),
  name: z.string().optional(),
  body: z.string().optional(),
  draft: z.boolean().optional(),
  prerelease: z.boolean().optional(),
  make_latest: z.enum(["true", "false", "legacy"]).optional(),
};

export const releaseTools: readonly TwinTool[] = [
  tool({
    name: "list_releases",
    description: "List a repository's releases, newest first.",
    input: { ...repoArgs, ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/releases"), query: query(q) }),
  }),
  tool({
    name: "get_latest_release",
    description: "Get the latest published, non-prerelease release.",
    input: repoArgs,
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, "/releases/latest") }),
  }),
  tool({
    name: "get_release",
    description: "Get a release by its numeric id: tag, name, notes, draft and prerelease state.",
    input: { ...repoArgs, release_id: releaseId },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/releases/${a.release_id}`) }),
  }),
  tool({
    name: "get_release_by_tag",
    description: "Get the release made for a tag, by the tag's name.",
    input: { ...repoArgs, tag: z.string().min(1) },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/releases/tags/${seg(a.tag)}`) }),
  }),
  tool({
    name: "list_release_assets",
    description: "List the files (assets) attached to a release.",
    input: { ...repoArgs, release_id: releaseId, ...pageArgs },
    readOnly: true,
    toRequest: (a) => ({
      method: "GET",
      path: repoPath(a, `/releases/${a.release_id}/assets`),
      query: query({ per_page: a.per_page, page: a.page }),
    }),
  }),
  tool({
    name: "create_release",
    description: "Create a release; its tag is created at target_commitish when it does not exist yet (unless a draft).",
    input: { ...repoArgs, tag_name: z.string().min(1), ...releaseFields, generate_release_notes: z.boolean().optional() },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, "/releases"), body: bodyOf(a, ["owner", "repo"]) }),
  }),
  tool({
    name: "update_release",
    description: "Update a release (publish a draft with draft: false).",
    input: { ...repoArgs, release_id: releaseId, tag_name: z.string().optional(), ...releaseFields },
    toRequest: (a) => ({
      method: "PATCH",
      path: repoPath(a, `/releases/${a.release_id}`),
      body: bodyOf(a, ["owner", "repo", "release_id"]),
    }),
  }),
  tool({
    name: "delete_release",
    description: "Delete a release (its tag stays).",
    input: { ...repoArgs, release_id: releaseId },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/releases/${a.release_id}`) }),
  }),
  tool({
    name: "generate_release_notes",
    description: "Generate a release's notes: the pull requests merged since the previous release.",
    input: {
      ...repoArgs,
      tag_name: z.string().min(1),
      target_commitish: z.string().optional(),
      previous_tag_name: z.string().optional(),
    },
    readOnly: true,
    toRequest: (a) => ({ method: "POST", path: repoPath(a, "/releases/generate-notes"), body: bodyOf(a, ["owner", "repo"]) }),
  }),
  tool({
    name: "list_tags",
    description: "List a repository's tags with the commit each points at.",
    input: { ...repoArgs, ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/tags"), query: query(q) }),
  }),
];
