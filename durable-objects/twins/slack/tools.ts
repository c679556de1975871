// MCP tools: one typed tool per Slack method, named after it (`chat_postMessage`), taking the
// method's own argument names, and sent as the same JSON POST to /api/<method> a client would
// make, so it runs through the same dispatch and lands on the same tape (transport `mcp`). Each
// method's tool is derived from its route's declaration (context.ts `method`, kit/route.ts
// `toolsOf`); only the two tools that are not one declared call's front are written here.
import { z } from "zod";
import { toolsOf } from "../kit/route";
import { seg, tool } from "../kit/tools";
import type { TwinTool } from "../types";
import { slackRoutes } from "./routes";

/**
 * Not derivable: the upload route takes the file's bytes however a client sends them (a
 * multipart part, a raw body, or `{content}` as JSON; routes/files.ts `uploadedBytes`), so it
 * declares no body a tool could take its arguments from. This tool is the JSON form, for text.
 */
const uploadContent = tool({
  name: "files_upload_content",
  description: "Step 2 of an upload: the file's text content, for a file id from files_getUploadURLExternal.",
  input: { file_id: z.string().min(1), content: z.string() },
  toRequest: ({ file_id, content }) => ({ method: "POST", path: `/upload/v1/${seg(file_id)}`, body: { content } }),
});

/**
 * Not derivable: the download URL's path is two segments (the team-and-file ref, and a name no
 * one reads), where an agent has one file id; the tool fills them from it.
 */
const download = tool({
  name: "files_download",
  description: "A file's text content (what its url_private serves).",
  input: { file: z.string().min(1) },
  readOnly: true,
  toRequest: ({ file }) => ({ method: "GET", path: `/files-pri/${seg(file)}/content` }),
});

export const slackTools: readonly TwinTool[] = [...toolsOf(slackRoutes), uploadContent, download];
