// pome sandbox and pome doctor against the running platform.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEAD_URL, example, pome, pomeJson, tempDir } from "./helpers";

interface Sandbox {
  session_id: string;
  id: string;
  state: string;
  agent_token: string;
  twins: string[];
  per_twin: Record<string, { api_url: string }>;
}

describe("pome sandbox manages a sandbox's life", () => {
  it("creates, lists, reads, heartbeats and deletes with a discard", async () => {
    const created = await pomeJson<Sandbox>(["sandbox", "create", "--task", example("review-and-merge")]);
    expect(created.code).toBe(0);
    const id = created.json.session_id;
    expect(created.json.agent_token).toBeTruthy();

    const list = await pomeJson<Sandbox[]>(["sandbox", "list", "--limit", "5"]);
    expect(list.json.map((s) => s.id)).toContain(id);

    const human = await pome(["sandbox", "get", id]);
    expect(human.stdout).toContain(id);
    expect(human.stdout).not.toContain(created.json.agent_token);

    expect((await pome(["sandbox", "heartbeat", id])).code).toBe(0);

    const refused = await pome(["sandbox", "delete", id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--discard/);
    const deleted = await pomeJson<Sandbox>(["sandbox", "delete", id, "--discard"]);
    expect(deleted.json.state).toBe("expired");

    const late = await pome(["sandbox", "heartbeat", id]);
    expect(late.code).toBe(3);
    expect(late.stderr).toMatch(/410 session_expired/);
  });

  it("seeds from a file keyed by twin and prints shell exports with --env", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "seed.json"), JSON.stringify({ github: { repositories: [{ owner: "northwind", name: "payments" }] } }));
    const { code, stdout } = await pome(["sandbox", "create", "--seed", "seed.json", "--env"], { cwd: dir });
    expect(code).toBe(0);
    const url = /export POME_GITHUB_REST_URL='([^']+)'/.exec(stdout)?.[1] ?? "";
    const token = /export POME_AUTH_TOKEN='([^']+)'/.exec(stdout)?.[1] ?? "";
    const res = await fetch(`${url}/repos/northwind/payments`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const session = /export POME_SESSION_ID='([^']+)'/.exec(stdout)?.[1] ?? "";
    expect((await pome(["sandbox", "delete", session, "--discard"])).code).toBe(0);
  });

  it("refuses a seed file that names a twin the sandbox lacks", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "seed.json"), JSON.stringify({ slack: {} }));
    const { code, stderr } = await pome(["sandbox", "create", "--seed", "seed.json"], { cwd: dir });
    expect(code).toBe(2);
    expect(stderr).toMatch(/"slack", which is not a twin of this sandbox/);
  });

  it("exits 2 for an unknown subcommand", async () => {
    expect((await pome(["sandbox", "explode"])).code).toBe(2);
  });
});

describe("pome doctor walks config → API → key → twin → routing", () => {
  it("passes every step against the running platform", async () => {
    const { code, json } = await pomeJson<{ ok: boolean; steps: { name: string; ok: boolean; detail: string }[] }>(["doctor"]);
    expect(code).toBe(0);
    expect(json.steps.map((s) => [s.name, s.ok])).toEqual([
      ["config", true],
      ["api", true],
      ["key", true],
      ["twin", true],
      ["routing", true],
    ]);
    expect(json.steps[0].detail).toContain("(from POME_API_URL)");
  });

  it.each(["github", "stripe", "slack", "gmail", "linear"])(
    "proves routing on the %s twin with a call read from its own route list",
    async (twin) => {
      const { code, json } = await pomeJson<{ ok: boolean; steps: { name: string; ok: boolean; detail: string }[] }>([
        "doctor",
        "--twin",
        twin,
      ]);
      expect(code).toBe(0);
      expect(json.steps.find((s) => s.name === "routing")?.detail).toContain(`with the ${twin} credential reached the twin`);
    },
  );

  it("stops at the key when it is refused", async () => {
    const { code, json } = await pomeJson<{ steps: { name: string; ok: boolean }[] }>(["doctor", "--api-key", "pme_not_a_key"]);
    expect(code).toBe(1);
    expect(json.steps.at(-1)).toMatchObject({ name: "key", ok: false });
  });

  it("stops at the API when nothing answers", async () => {
    const { code, json } = await pomeJson<{ steps: { name: string; ok: boolean; detail: string }[] }>(["doctor"], { apiUrl: DEAD_URL });
    expect(code).toBe(1);
    expect(json.steps.at(-1)).toMatchObject({ name: "api", ok: false });
  });
});

describe("API errors exit 3 and name what is wrong", () => {
  it("names the refused key", async () => {
    const { code, stderr } = await pome(["runs"], { env: { POME_API_KEY: "pme_nope" } });
    expect(code).toBe(3);
    expect(stderr).toMatch(/401 unauthorized/);
    expect(stderr).toMatch(/POME_API_KEY/);
  });

  it("prints the error as JSON with --json", async () => {
    const { code, json } = await pomeJson<{ error: { exit_code: number; status: number } }>(["runs"], {
      env: { POME_API_KEY: "pme_nope" },
    });
    expect(code).toBe(3);
    expect(json.error).toMatchObject({ exit_code: 3, status: 401 });
  });
});
