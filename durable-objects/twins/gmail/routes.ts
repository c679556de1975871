// The Gmail twin's route table, one file per area; every entry names its discovery method id.
import type { Route } from "../types";
import { draftRoutes } from "./routes/drafts";
import { historyRoutes } from "./routes/history";
import { labelRoutes } from "./routes/labels";
import { messageRoutes } from "./routes/messages";
import { accessRoutes } from "./routes/access";
import { forwardingRoutes } from "./routes/forwarding";
import { identityRoutes } from "./routes/identities";
import { settingsRoutes } from "./routes/settings";
import { threadRoutes } from "./routes/threads";
import { watchRoutes } from "./routes/watch";

export const gmailRoutes: readonly Route[] = [
  ...messageRoutes,
  ...threadRoutes,
  ...labelRoutes,
  ...draftRoutes,
  ...historyRoutes,
  ...settingsRoutes,
  ...identityRoutes,
  ...forwardingRoutes,
  ...accessRoutes,
  ...watchRoutes,
];
