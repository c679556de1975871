// The control plane's own reliability arithmetic and wording (workers/stats/), loaded through
// Node's type stripping like the task parser, so `pome` computes and prints the statistics exactly
// as the API, the control MCP and the dashboard do.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const statsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../workers/stats");

let text;
let arithmetic;

/** @returns {Promise<typeof import("../../workers/stats/text.ts")>} */
export async function statsText() {
  text ??= await import(pathToFileURL(path.join(statsDir, "text.ts")).href);
  return text;
}

/** The reliability arithmetic itself, for the trials `pome run` has just made. */
/** @returns {Promise<typeof import("../../workers/stats/reliability.ts")>} */
export async function statsReliability() {
  arithmetic ??= await import(pathToFileURL(path.join(statsDir, "reliability.ts")).href);
  return arithmetic;
}
