// A token an agent puts in a URL (a path segment, `?access_token=`) never reaches the server's
// console or its state folder: npm start redacts its output and keeps no observability store.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_KEY, startDevServer, type DevServer } from "../server";

let server: DevServer;
const stateDir = mkdtempSync(path.join(os.tmpdir(), "pome-logs-"));

beforeAll(async () => {
  server = await startDevServer({ env: { POME_STATE_DIR: stateDir } });
});
afterAll(async () => {
  await server?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe("tokens in URLs stay out of logs and state", () => {
  it("redacts a provider token and an agent token sent in a path and a query", async () => {
    const created = await fetch(`${server.url}/v1/sandboxes`, {
      method: "POST",
      headers: { authorization: `Bearer ${LOCAL_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ task_source: "IyAuLgo=" }),
    });
    expect(created.status).toBe(201);
    const sandbox = (await created.json()) as {
      agent_token: string;
      per_twin: { github: { api_url: string } };
      provider_credentials: { github: { token: string } };
    };
    const pat = sandbox.provider_credentials.github.token;
    const jwt = sandbox.agent_token;
    const api = sandbox.per_twin.github.api_url;
    const auth = { authorization: `Bearer ${jwt}` };
    for (const url of [
      `${api}/repos/acme/${pat}/issues`,
      `${api}/repos/acme/api/issues?access_token=${pat}`,
      `${api}/repos/acme/${encodeURIComponent(pat).replace(/_/g, "%5F")}`,
      `${api}/repos/acme/api/issues?access_token=${jwt}`,
      `${server.url}/repos/acme/${jwt}`,
    ]) {
      const res = await fetch(url, { headers: auth });
      expect(res.status).toBeLessThan(500);
      await res.arrayBuffer();
    }
    const tape = await (await fetch(`${api}/_pome/events`, { headers: auth })).text();
    expect(tape.length).toBeGreaterThan(100);
    const body = pat.slice("github_pat_".length);
    const jwtSignature = jwt.split(".")[2];
    expect(server.output()).not.toContain(body);
    expect(server.output()).not.toContain(jwtSignature);
    expect(tape).not.toContain(body);
    for (const file of filesUnder(stateDir)) {
      const bytes = readFileSync(file).toString("latin1");
      expect(bytes.includes(body), file).toBe(false);
      expect(bytes.includes(jwtSignature), file).toBe(false);
    }
  });
});

describe("the console filter of npm start", () => {
  it("redacts tokens in a log line, plain or percent-encoded, and keeps commit SHAs", async () => {
    const { redactLogLine } = await import("../../../scripts/redacting-output.mjs");
    const pat = `github_pat_${"Ab1".repeat(20)}`;
    const line = `twin handler failed github GET /repos/acme/${pat}/git/commits/${"a1".repeat(20)} ?access_token=${encodeURIComponent(pat).replace(/_/g, "%5F")}`;
    const out = redactLogLine(line);
    expect(out).not.toContain(pat.slice(11));
    expect(out).not.toContain("%5F");
    expect(out).toContain("a1".repeat(20));
    expect(out).toContain("twin handler failed github GET /repos/acme/[REDACTED]/git/commits/");
  });
});

describe("every token a sandbox was issued stays out of the console, the tape and the state folder", () => {
  /** The forms an agent may put a token in: as is, JSON-escaped (inside a JSON string), URL-encoded and base64. */
  const forms = (token: string) => ({
    plain: token,
    "JSON-escaped": token.replace(/[_-]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`),
    "URL-encoded": encodeURIComponent(token).replace(/[_.-]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    base64: btoa(token),
  });

  it("for every twin, in every form, on REST bodies, queries and paths", async () => {
    const issued: string[] = [];
    const bodies: string[] = [];
    for (const twins of [
      ["github", "slack", "stripe"],
      ["gmail", "linear"],
    ]) {
      const res = await fetch(`${server.url}/v1/sandboxes`, {
        method: "POST",
        headers: { authorization: `Bearer ${LOCAL_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ twins, task_source: "IyAuLgo=" }),
      });
      expect(res.status).toBe(201);
      const sandbox = (await res.json()) as {
        agent_token: string;
        per_twin: Record<string, { api_url: string }>;
        provider_credentials: Record<string, { token: string }>;
      };
      const tokens = [sandbox.agent_token, ...twins.map((t) => sandbox.provider_credentials[t].token)];
      issued.push(...tokens);
      for (const twin of twins) {
        for (const token of tokens) {
          for (const [form, value] of Object.entries(forms(token))) {
            // The body is written as raw JSON text, so a JSON-escaped form arrives as escapes.
            const body = `{"note":"leaked ${value} here","form":"${form}"}`;
            const inUrl = form === "JSON-escaped" ? "escaped" : encodeURIComponent(value);
            const url = `${sandbox.per_twin[twin].api_url}/pome-leak-probe/${inUrl}?q=${inUrl}`;
            const answer = await fetch(url, {
              method: "POST",
              headers: { authorization: `Bearer ${sandbox.agent_token}`, "content-type": "application/json" },
              body,
            });
            // The probe path is one no twin serves: its honest 501 (taped unsupported) is expected.
            expect(answer.status === 501 || answer.status < 500, `${twin} answered ${answer.status}`).toBe(true);
            await answer.arrayBuffer();
          }
        }
        const tape = await fetch(`${sandbox.per_twin[twin].api_url}/_pome/events`, {
          headers: { authorization: `Bearer ${sandbox.agent_token}` },
        });
        bodies.push(await tape.text());
      }
    }
    const haystacks: [string, string][] = [["the console", server.output()], ...bodies.map((b, i): [string, string] => [`tape ${i}`, b])];
    for (const file of filesUnder(stateDir)) haystacks.push([file, readFileSync(file).toString("latin1")]);
    let searched = 0;
    for (const token of issued) {
      for (const [form, value] of Object.entries(forms(token))) {
        // The distinctive part: a prefix or JWT header alone is not a secret.
        const needle = value.slice(Math.floor(value.length / 3));
        for (const [where, text] of haystacks) {
          searched++;
          const at = text.indexOf(needle);
          expect(at, `${form} token found in ${where}: …${text.slice(Math.max(0, at - 120), at + 40)}…`).toBe(-1);
        }
      }
    }
    // Seven tokens (two agent tokens, five provider keys), four forms each, in every haystack.
    expect(issued).toHaveLength(7);
    expect(searched).toBe(issued.length * 4 * haystacks.length);
    expect(haystacks.length).toBeGreaterThan(6);
  });
});
