// Miniflare, configured once for every local use: offline, nothing recorded beyond the state
// folder. (No wrangler import here: `npm start`'s long-lived process loads Miniflare only.)
import path from "node:path";
import { Log, LogLevel, Miniflare, convertV4MiniflareOptions } from "miniflare";
import { redactLogLine } from "./redacting-output.mjs";

/** Miniflare options no matter which worker runs: offline, nothing recorded beyond the state. */
export function sharedOptions(stateDir) {
  return {
    resourcePersistencePath: path.join(stateDir, "v3"),
    // Miniflare's scratch space (email logs) beside the state, not a new folder in /tmp each start.
    resourceTmpPath: path.join(stateDir, "tmp"),
    enableDevRegistry: false,
    unsafeLocalExplorer: false,
    unsafeObservability: false,
    telemetry: { enabled: false },
    cf: false,
    logRequests: false,
    log: new Log(LogLevel.WARN),
    // The Worker's own console lines (an error naming a request path) leave redacted.
    handleStructuredLogs: ({ level, message }) => {
      const line = redactLogLine(message);
      if (level === "error" || level === "warn") console.error(line);
      else console.log(line);
    },
  };
}

// Options in the (documented) Miniflare 4 shape, which wrangler itself converts the same way.
export const miniflare = (options) => new Miniflare(convertV4MiniflareOptions(options));
