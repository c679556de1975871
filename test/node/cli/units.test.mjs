// The CLI's pure parts, without a server: configuration precedence, the examinee's environment,
// argument splitting, and the trials arithmetic behind pass rates and rerun flips.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCommandLine } from "../../../cli/lib/args.mjs";
import { loadConfig } from "../../../cli/lib/config.mjs";
import { examineeEnv } from "../../../cli/lib/examinee.mjs";
import { criterionFlips, newGroupId, summarize, trialPassed } from "../../../cli/lib/trials.mjs";
// tempDir removes what it made when this file ends.
import { tempDir } from "./helpers.ts";

function dirs({ project, user } = {}) {
  const cwd = tempDir("pome-cwd-");
  const xdg = tempDir("pome-xdg-");
  if (project) writeFileSync(path.join(cwd, "pome.json"), JSON.stringify(project));
  if (user) {
    mkdirSync(path.join(xdg, "pome"));
    writeFileSync(path.join(xdg, "pome", "config.json"), JSON.stringify(user));
  }
  return { cwd, env: { XDG_CONFIG_HOME: xdg } };
}

describe("configuration comes from flags, then the environment, then ./pome.json, then the user file", () => {
  it("defaults to the local dev server and key", () => {
    const { cwd, env } = dirs();
    expect(loadConfig({ cwd, env })).toMatchObject({
      apiUrl: "http://127.0.0.1:8787",
      apiKey: "pme_local_dev",
      sources: { apiUrl: "default", apiKey: "default" },
    });
  });

  it("prefers the project file to the user file", () => {
    const { cwd, env } = dirs({ project: { api_url: "http://project.test" }, user: { api_url: "http://user.test", api_key: "pme_user" } });
    const config = loadConfig({ cwd, env });
    expect(config.apiUrl).toBe("http://project.test");
    expect(config.apiKey).toBe("pme_user");
    expect(config.sources.apiKey).toMatch(/config\.json$/);
  });

  it("prefers the environment to both files, and a flag to everything", () => {
    const { cwd, env } = dirs({ project: { api_url: "http://project.test" } });
    expect(loadConfig({ cwd, env: { ...env, POME_API_URL: "http://env.test/" } }).apiUrl).toBe("http://env.test");
    expect(
      loadConfig({ cwd, env: { ...env, POME_API_URL: "http://env.test" }, flags: { "api-url": "http://flag.test" } }).sources.apiUrl,
    ).toBe("--api-url");
  });

  it("follows PORT (the port npm start serves on) when nothing names the API, and refuses a PORT that is no port", () => {
    const { cwd, env } = dirs();
    expect(loadConfig({ cwd, env: { ...env, PORT: "9123" } })).toMatchObject({
      apiUrl: "http://127.0.0.1:9123",
      sources: { apiUrl: "PORT" },
    });
    expect(loadConfig({ cwd, env: { ...env, PORT: "9123", POME_API_URL: "http://env.test" } }).apiUrl).toBe("http://env.test");
    const withFile = dirs({ user: { api_url: "http://user.test" } });
    expect(loadConfig({ cwd: withFile.cwd, env: { ...withFile.env, PORT: "9123" } }).apiUrl).toBe("http://user.test");
    expect(() => loadConfig({ cwd, env: { ...env, PORT: "eighty" } })).toThrow(/PORT="eighty" is not a port number/);
  });

  it("reads the agent manifest from pome.json", () => {
    const { cwd, env } = dirs({ project: { agent: { name: "triager", version: "v3", model: "claude-x" } } });
    expect(loadConfig({ cwd, env }).agent).toEqual({ name: "triager", version: "v3", model: "claude-x" });
  });

  it("names the file when a config file is not JSON", () => {
    const { cwd, env } = dirs();
    writeFileSync(path.join(cwd, "pome.json"), "{nope");
    expect(() => loadConfig({ cwd, env })).toThrow(/pome\.json is not valid JSON/);
  });

  it("refuses an API URL that is not http(s), saying where it came from", () => {
    const { cwd, env } = dirs();
    expect(() => loadConfig({ cwd, env: { ...env, POME_API_URL: "ftp://x" } })).toThrow(/from POME_API_URL/);
  });
});

describe("the examinee gets the sandbox, never the team key", () => {
  const sandbox = {
    session_id: "ses_1",
    expires_at: "2030-01-01T00:00:00.000Z",
    agent_token: "jwt",
    per_twin: { github: { api_url: "http://x/github/s/ses_1", mcp_url: "http://x/github/s/ses_1/mcp", openapi_url: "http://x/o" } },
    provider_credentials: { github: { token: "github_pat_1", header: "Authorization", scheme: "Bearer" } },
  };
  let env;
  beforeAll(async () => {
    env = await examineeEnv({ POME_API_KEY: "pme_secret", PATH: "/bin" }, sandbox, {
      prompt: "Do it",
      name: "T",
      twins: ["github"],
      groupId: "grp_1",
      trial: 1,
      trials: 2,
    });
  });

  it("sets each twin's URLs and provider token", () => {
    expect(env).toMatchObject({
      POME_GITHUB_REST_URL: "http://x/github/s/ses_1",
      POME_GITHUB_MCP_URL: "http://x/github/s/ses_1/mcp",
      POME_GITHUB_TOKEN: "github_pat_1",
    });
  });

  it("sets the agent token, session, prompt and trial", () => {
    expect(env).toMatchObject({
      POME_AUTH_TOKEN: "jwt",
      POME_SESSION_ID: "ses_1",
      POME_TASK_PROMPT: "Do it",
      POME_TRIAL: "1",
      POME_TRIALS: "2",
      PATH: "/bin",
    });
  });

  it("removes POME_API_KEY", () => {
    expect(env.POME_API_KEY).toBeUndefined();
  });
});

describe("the command line splits at --", () => {
  it("keeps the examinee's own flags apart", () => {
    const { values, positionals, rest } = parseCommandLine(["task.md", "--runs", "2", "--", "node", "agent.mjs", "--runs", "9"], {
      runs: { type: "string" },
    });
    expect(values.runs).toBe("2");
    expect(positionals).toEqual(["task.md"]);
    expect(rest).toEqual(["node", "agent.mjs", "--runs", "9"]);
  });

  it("refuses an unknown option as a usage error", () => {
    expect(() => parseCommandLine(["--nope"])).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});

describe("trials pass by score and groups pass by rate", () => {
  it("passes a trial at score 100 by default, and never one with no score", () => {
    expect(trialPassed(100)).toBe(true);
    expect(trialPassed(99)).toBe(false);
    expect(trialPassed(null)).toBe(false);
    expect(trialPassed(80, 80)).toBe(true);
  });

  it("compares the pass rate of the graded trials with the threshold, by the control plane's arithmetic", async () => {
    const { reliability } = await import("../../../workers/stats/reliability.ts");
    const trials = [100, 50, 100, null].map((score, i) => ({ run_id: `run_${i}`, score, criteria: [] }));
    // The unscored trial errored: shown, and out of the fraction (2 of 3 graded).
    const summary = summarize(reliability(trials, { passThreshold: 60 }));
    expect(summary).toMatchObject({ passed_trials: 2, errored_trials: 1, graded_trials: 3, pass_rate: 66.67, passed: true });
    expect(summarize(reliability(trials, {}))).toMatchObject({ pass_threshold: 100, passed: false });
    expect(summarize(reliability([{ run_id: "r", score: null, criteria: [] }]))).toMatchObject({ pass_rate: 0, passed: false });
  });

  it("mints grp_ group ids", () => {
    expect(newGroupId()).toMatch(/^grp_[0-9a-f]{16}$/);
  });
});

describe("a rerun reports per-criterion flips", () => {
  const run = (...statuses) => ({
    criteria_results: statuses.map((status, i) => ({ id: `c${i + 1}`, text: `criterion ${i + 1}`, status })),
  });

  it("flags criteria whose status changed", () => {
    const flips = criterionFlips([run("failed", "passed")], [run("passed", "passed")]);
    expect(flips.filter((f) => f.changed)).toEqual([{ id: "c1", text: "criterion 1", before: "failed", after: "passed", changed: true }]);
  });

  it("summarizes a criterion that differs across trials as passed k/n", () => {
    const flips = criterionFlips([run("failed"), run("passed")], [run("passed"), run("passed")]);
    expect(flips[0]).toMatchObject({ before: "passed 1/2", after: "passed", changed: true });
  });
});
