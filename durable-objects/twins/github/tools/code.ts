// The two content tools that are not a 1:1 front of one route, so they cannot be derived from a
// declaration: get_file_contents picks between GET …/contents (the root) and GET …/contents/{path}
// by whether a path is given, and create_or_update_file takes plain text and base64-encodes it
// for PUT …/contents/{path}. The other content and status tools are derived from their routes.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { trimSlashes } from "../input";
import { base64Utf8, filePath, query, repoArgs, repoPath, tool } from "./define";

export const codeTools: readonly TwinTool[] = [
  tool({
    name: "get_file_contents",
    description:
      "Read a file (or list a directory) at a branch, tag or commit. A file's `content` is base64-encoded, as GitHub sends it; its `sha` is needed to update the file.",
    input: {
      ...repoArgs,
      path: z.string().describe('Path inside the repository, e.g. "src/index.ts"; empty for the root directory'),
      ref: z.string().optional().describe("Branch, tag or commit SHA (default: the default branch)"),
    },
    readOnly: true,
    toRequest: (a) => ({
      method: "GET",
      path: repoPath(a, trimSlashes(a.path) ? `/contents/${filePath(a.path)}` : "/contents"),
      query: query({ ref: a.ref }),
    }),
  }),
  tool({
    name: "create_or_update_file",
    description:
      "Create or overwrite one file on a branch as a new commit. Pass the new content as plain text (the tool encodes it). To overwrite an existing file pass its current `sha` from get_file_contents.",
    input: {
      ...repoArgs,
      path: z.string().min(1).describe('Path inside the repository, e.g. "docs/setup.md"'),
      content: z.string().describe("The whole new file content, as plain UTF-8 text"),
      message: z.string().min(1).describe("The commit message"),
      branch: z.string().optional().describe("The branch to commit to (default: the default branch)"),
      sha: z.string().optional().describe("The blob SHA of the file being replaced; required when the file exists"),
    },
    destructive: true,
    toRequest: (a) => ({
      method: "PUT",
      path: repoPath(a, `/contents/${filePath(a.path)}`),
      body: {
        message: a.message,
        content: base64Utf8(a.content),
        ...(a.branch !== undefined ? { branch: a.branch } : {}),
        ...(a.sha !== undefined ? { sha: a.sha } : {}),
      },
    }),
  }),
];
