// Oracle pairs (issue 38, point 5): a task's Config names a reference agent that must pass it and
// a naive agent that must fail it. `pome validate --oracle` runs both through `pome run`'s own loop
// (run-trials.mjs), so a task whose criteria cannot tell right from plausible-but-wrong is caught.
import path from "node:path";
import { EXIT } from "./errors.mjs";
import { runTrials } from "./run-trials.mjs";
import { newGroupId } from "./trials.mjs";

/** What each agent of the pair must get: the reference passes, the naive one fails on the agent's account. */
export const ORACLE_ROLES = Object.freeze({ reference: "passed", naive: "failed" });

/**
 * A Config command as words: split on spaces, "double" or 'single' quotes keeping a word whole.
 * A leading `node` is the Node running pome, so the pair runs on the Node the CLI runs on.
 * @param {string} line
 */
export function oracleCommand(line) {
  const words = [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
  if (words[0] === "node") words[0] = process.execPath;
  return words;
}

/** The pair a task declares, each with the command to run and the folder it runs from (the task file's). */
export function oraclePair(task, taskFile) {
  const cwd = path.dirname(path.resolve(taskFile));
  return Object.keys(ORACLE_ROLES)
    .filter((role) => task.config[role] !== undefined)
    .map((role) => ({ role, line: task.config[role], command: oracleCommand(task.config[role]), cwd, expected: ORACLE_ROLES[role] }));
}

/** Which roles the task leaves undeclared. */
export const missingRoles = (task) => Object.keys(ORACLE_ROLES).filter((role) => task.config[role] === undefined);

/**
 * Runs each agent of the pair once, as `pome run` would, and says whether it got the verdict it must.
 * A naive agent's run that is incomplete or errored does not count as failing: it proves nothing.
 */
export async function runOracle({ api, out, task, markdown, criteria, taskFile }) {
  const results = [];
  const groupId = newGroupId();
  for (const agent of oraclePair(task, taskFile)) {
    out.progress(`oracle: running the ${agent.role} agent (${agent.line}); it must end ${agent.expected}`);
    let outcome;
    try {
      outcome = await runTrials({
        api,
        out,
        task,
        markdown,
        criteria,
        command: agent.command,
        cwd: agent.cwd,
        runs: 1,
        groupId,
        agentVersion: `oracle-${agent.role}`,
        agentModel: "scripted",
      });
    } catch (err) {
      // An agent of the pair that cannot start is a broken pair, said as such, not a crash of pome.
      if (err?.exitCode !== EXIT.EXAMINEE) throw err;
      const base = { role: agent.role, command: agent.line, run_id: null, score: null, verdict: "errored" };
      results.push({ ...base, verdict_reason: err.message, expected: agent.expected, ok: false });
      continue;
    }
    const trial = outcome.runs[0];
    const verdict = trial?.outcome ?? "errored";
    results.push({
      role: agent.role,
      command: agent.line,
      run_id: trial?.run_id ?? null,
      score: trial?.score ?? null,
      verdict,
      verdict_reason: trial?.verdict_reason ?? null,
      expected: agent.expected,
      ok: verdict === agent.expected,
    });
    if (outcome.interrupted) break;
  }
  return results;
}
