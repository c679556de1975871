// Where the CLI finds its API and key. Highest precedence first:
//   1. --api-url / --api-key on the command line
//   2. POME_API_URL / POME_API_KEY in the environment
//   3. ./pome.json in the current directory (the project file; may also carry `agent`)
//   4. ~/.config/pome/config.json (or $XDG_CONFIG_HOME/pome/config.json; the user file)
//   5. the local dev server: http://127.0.0.1:$PORT when PORT is set (the port `npm start` serves
//      on), else http://127.0.0.1:8787; the key pme_local_dev
// Each value remembers where it came from, so `pome doctor` can say.
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CliError, EXIT } from "./errors.mjs";

export const DEFAULT_API_URL = "http://127.0.0.1:8787";
export const DEFAULT_API_KEY = "pme_local_dev";

/** The local server `npm start` runs: on $PORT when that is set, as npm start itself does. */
function localServer(env) {
  if (!env.PORT) return { value: DEFAULT_API_URL, source: "default" };
  const port = Number(env.PORT);
  if (!/^[0-9]+$/.test(env.PORT) || port < 1 || port > 65535) {
    throw new CliError(`PORT="${env.PORT}" is not a port number; set POME_API_URL to name the Pome API`, EXIT.API);
  }
  return { value: `http://127.0.0.1:${port}`, source: "PORT" };
}

/** The first progress line of a command that talks to the API: which server, and why that one. */
export const apiLine = (config) =>
  `Pome API: ${config.apiUrl} (${config.sources.apiUrl === "default" ? "default: the local dev server" : `from ${config.sources.apiUrl}`})`;

export function userConfigPath(env = process.env) {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  return path.join(base, "pome", "config.json");
}

export const projectConfigPath = (cwd = process.cwd()) => path.join(cwd, "pome.json");

function readConfigFile(file) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (err.code === "ENOENT") return undefined;
    throw new CliError(`Cannot read the config file ${file}: ${err.message}`, EXIT.API);
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new CliError(`The config file ${file} is not valid JSON: ${err.message}`, EXIT.API);
  }
  if (!data || typeof data !== "object" || Array.isArray(data))
    throw new CliError(`The config file ${file} must hold a JSON object`, EXIT.API);
  for (const key of ["api_url", "api_key"]) {
    if (data[key] !== undefined && typeof data[key] !== "string") throw new CliError(`${file}: "${key}" must be a string`, EXIT.API);
  }
  return data;
}

/**
 * @param {{ flags?: { "api-url"?: string, "api-key"?: string }, env?: NodeJS.ProcessEnv, cwd?: string }} [opts]
 */
export function loadConfig({ flags = {}, env = process.env, cwd = process.cwd() } = {}) {
  const projectFile = projectConfigPath(cwd);
  const userFile = userConfigPath(env);
  const project = readConfigFile(projectFile);
  const user = readConfigFile(userFile);
  const pick = (flag, envName, fileKey, fallback) => {
    if (flags[flag]) return { value: flags[flag], source: `--${flag}` };
    if (env[envName]) return { value: env[envName], source: envName };
    if (project?.[fileKey]) return { value: project[fileKey], source: projectFile };
    if (user?.[fileKey]) return { value: user[fileKey], source: userFile };
    return fallback();
  };
  const url = pick("api-url", "POME_API_URL", "api_url", () => localServer(env));
  const key = pick("api-key", "POME_API_KEY", "api_key", () => ({ value: DEFAULT_API_KEY, source: "default" }));
  let parsed;
  try {
    parsed = new URL(url.value);
  } catch {
    throw new CliError(`The API URL "${url.value}" (from ${url.source}) is not a URL`, EXIT.API);
  }
  if (!["http:", "https:"].includes(parsed.protocol))
    throw new CliError(`The API URL "${url.value}" (from ${url.source}) must be http or https`, EXIT.API);
  const agent = project?.agent && typeof project.agent === "object" ? project.agent : {};
  return {
    apiUrl: url.value.replace(/\/+$/, ""),
    apiKey: key.value,
    sources: { apiUrl: url.source, apiKey: key.source },
    files: { project: project ? projectFile : null, user: user ? userFile : null },
    /** The project's agent manifest (`pome.json` → agent: { name, version, model }). */
    agent: {
      name: typeof agent.name === "string" ? agent.name : undefined,
      version: typeof agent.version === "string" ? agent.version : undefined,
      model: typeof agent.model === "string" ? agent.model : undefined,
    },
  };
}
