// The control plane's own reliability wording (workers/stats/text.ts), loaded through Node's type
// stripping like the task parser, so `pome` prints the statistics the API computed in the same
// words the control MCP uses.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const statsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../workers/stats");

let text;

/** @returns {Promise<typeof import("../../workers/stats/text.ts")>} */
export async function statsText() {
  text ??= await import(pathToFileURL(path.join(statsDir, "text.ts")).href);
  return text;
}
