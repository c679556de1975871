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
import { sessionRoutes } from "./resumable";
import { batchRoutes } from "./batch";

const served: readonly Route[] = [
  ...messageRoutes,
  // Where a resumable upload's chunks go: the POST upload URIs, by PUT.
  ...sessionRoutes([...messageRoutes, ...draftRoutes]),
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

/** Every route, and the batch endpoint (at both its paths) that serves its calls through them. */
export const gmailRoutes: readonly Route[] = [...served, ...batchRoutes(served)];
