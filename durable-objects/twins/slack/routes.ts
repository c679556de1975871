// The Slack twin's route table: every Web API method at /api/<method> (GET or POST), plus the
// upload URL files.uploadV2 posts bytes to and the file download URL.
import type { Route } from "../types";
import { chatRoutes } from "./routes/chat";
import { conversationRoutes } from "./routes/conversations";
import { dndRoutes } from "./routes/dnd";
import { canvasRoutes } from "./routes/canvases";
import { fileRoutes } from "./routes/files";
import { identityRoutes } from "./routes/identity";
import { miscRoutes } from "./routes/misc";
import { peopleRoutes } from "./routes/people";
import { reactionRoutes } from "./routes/reactions";
import { fileV1Routes } from "./routes/files-v1";
import { searchRoutes } from "./routes/search";
import { starRoutes } from "./routes/stars";
import { unfurlRoutes } from "./routes/unfurl";
import { viewRoutes } from "./routes/views";

export const slackRoutes: Route[] = [
  ...identityRoutes,
  ...conversationRoutes,
  ...chatRoutes,
  ...reactionRoutes,
  ...fileRoutes,
  ...canvasRoutes,
  ...miscRoutes,
  ...peopleRoutes,
  ...dndRoutes,
  ...viewRoutes,
  ...searchRoutes,
  ...fileV1Routes,
  ...unfurlRoutes,
  ...starRoutes,
];
