// Miniflare, configured once for every local use: offline, nothing recorded beyond the state
// folder. (No wrangler import here: `npm start`'s long-lived process loads Miniflare only.)
import path from "node:path";
import { Log, LogLevel, Miniflare, convertV4MiniflareOptions } from "miniflare";
import { maskSecrets } from "./local.mjs";
import { redactLogLine } from "./redacting-output.mjs";

/** Miniflare's warning when workerd exits without being asked to. */
const RUNTIME_CRASH = /Workers runtime crashed unexpectedly/;
/** How long a crash warning waits for the stop signal that may have caused it. */
const CRASH_REPORT_DELAY_MS = 1000;

/**
 * Miniflare's log at WARN, except that a runtime crash is reported only if the server is not
 * stopping a moment later. Ctrl-C in a terminal signals the whole process group, workerd
 * included: it may exit before Node has run its SIGINT handler, and Miniflare then reports that
 * intended exit as a crash (and starts another runtime). Waiting lets the stop win.
 */
class ShutdownAwareLog extends Log {
  #stopping;
  constructor(stopping) {
    super(LogLevel.WARN);
    this.#stopping = stopping;
  }
  warn(message) {
    if (!RUNTIME_CRASH.test(String(message))) return super.warn(message);
    if (this.#stopping()) return;
    // Unreferenced: a process on its way out does not wait to print it.
    setTimeout(() => {
      if (!this.#stopping()) super.warn(message);
    }, CRASH_REPORT_DELAY_MS).unref();
  }
}

/**
 * Miniflare options no matter which worker runs: offline, nothing recorded beyond the state.
 * `secrets` are values no log line may show (the server's secret settings); `stopping` says
 * whether the server is shutting down on purpose (its runtime's exit is then no crash).
 */
export function sharedOptions(stateDir, { secrets = [], stopping = () => false } = {}) {
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
    log: new ShutdownAwareLog(stopping),
    // The Worker's own console lines (an error naming a request path) leave redacted, and a
    // line that quotes a secret setting's value (a provider's error echoing a key) masked.
    handleStructuredLogs: ({ level, message }) => {
      const line = redactLogLine(maskSecrets(message, secrets));
      if (level === "error" || level === "warn") console.error(line);
      else console.log(line);
    },
  };
}

// Options in the (documented) Miniflare 4 shape, which wrangler itself converts the same way.
export const miniflare = (options) => new Miniflare(convertV4MiniflareOptions(options));
