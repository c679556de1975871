// Exit codes a CI can branch on, and the one error type every command throws.

export const EXIT = Object.freeze({
  /** The command did what was asked; for `run`, the pass rate met the threshold. */
  OK: 0,
  /** The command ran and the answer is "no": a run below its threshold, a task that does not validate, a doctor check that failed. */
  FAILED: 1,
  /** The command line is wrong: unknown command or option, missing argument, unreadable or malformed input file. */
  USAGE: 2,
  /** The API or the configuration: server unreachable, key refused, an error answer, a Node too old for the task parser. */
  API: 3,
  /** The examinee command could not be started at all (the run is errored before it began). */
  EXAMINEE: 4,
  /** `run`: the run was not fully graded (an unbound [code] criterion, a configured judge that failed): never a pass. */
  INCOMPLETE: 5,
  /** `run`: nothing could be graded at all; says nothing about the agent. */
  ERRORED: 6,
  /** Interrupted (Ctrl-C); any open sandbox was finalized first. */
  INTERRUPTED: 130,
});

export class CliError extends Error {
  /**
   * @param {string} message what is wrong, naming the thing (file, option, URL) at fault
   * @param {number} exitCode one of EXIT
   * @param {Record<string, unknown>} [details] machine-readable context, printed with --json
   */
  constructor(message, exitCode, details = {}) {
    super(message);
    this.exitCode = exitCode;
    this.details = details;
  }
}

export const usageError = (message, details) => new CliError(message, EXIT.USAGE, details);
