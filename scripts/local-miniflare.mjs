// Miniflare, configured once for every local use: offline, nothing recorded beyond the state
// folder. (No wrangler import here: `npm start`'s long-lived process loads Miniflare only.)
import path from "node:path";
import { Log, LogLevel, Miniflare, convertV4MiniflareOptions } from "miniflare";

/** Miniflare options no matter which worker runs: offline, nothing recorded beyond the state. */
export function sharedOptions(stateDir) {
  return {
    resourcePersistencePath: path.join(stateDir, "v3"),
    enableDevRegistry: false,
    unsafeLocalExplorer: false,
    unsafeObservability: false,
    telemetry: { enabled: false },
    cf: false,
    logRequests: false,
    log: new Log(LogLevel.WARN),
  };
}

// Options in the (documented) Miniflare 4 shape, which wrangler itself converts the same way.
export const miniflare = (options) => new Miniflare(convertV4MiniflareOptions(options));
