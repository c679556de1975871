// The Slack twin's route table: every Web API method at /api/<method> (GET or POST), plus the
// upload URL files.uploadV2 posts bytes to and the file download URL.
import type { Route } from "../types";
import { chatRoutes } from "./routes/chat";
import { conversationRoutes } from "./routes/conversations";
import { fileRoutes } from "./routes/files";
import { identityRoutes } from "./routes/identity";
import { miscRoutes } from "./routes/misc";
import { peopleRoutes } from "./routes/people";
import { reactionRoutes } from "./routes/reactions";

export const slackRoutes: Route[] = [
  ...identityRoutes,
  ...conversationRoutes,
  ...chatRoutes,
  ...reactionRoutes,
  ...fileRoutes,
  ...miscRoutes,
  ...peopleRoutes,
];
