// The Gmail twin's route table, one file per area; every entry names its discovery method id.
import type { Route } from "../types";
import { draftRoutes } from "./routes/drafts";
import { historyRoutes } from "./routes/history";
import { labelRoutes } from "./routes/labels";
import { messageRoutes } from "./routes/messages";
import { settingsRoutes } from "./routes/settings";
import { threadRoutes } from "./routes/threads";

export const gmailRoutes: readonly Route[] = [
  ...messageRoutes,
  ...threadRoutes,
  ...labelRoutes,
  ...draftRoutes,
  ...historyRoutes,
  ...settingsRoutes,
];
