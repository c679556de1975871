// `npm run test:clients`: other languages' official clients against the twins, outside `npm test`
// because they come from Debian, not npm (`apt-get install python3-github python3-stripe
// python3-googleapi`; CI installs them, see .ci/run). Each client runs a smoke script in
// test/clients/python/ against a fresh sandbox of the real local server; the script prints a line
// per step and exits 0 when every step held. A client that is not installed fails its test with the package to install: this suite
// is only run where they are.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSandbox, pomeUrl } from "../node/mcp/helpers";

/** Debian's interpreter: the packages install into its dist-packages, not into a pyenv or venv. */
const PYTHON = process.env.POME_CLIENTS_PYTHON ?? "/usr/bin/python3";

function runPython(script: string, env: Record<string, string>) {
  const result = spawnSync(PYTHON, [path.join(import.meta.dirname, "python", script)], {
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? String(result.error) : ""}` };
}

function requireModule(module: string, debianPackage: string) {
  const probe = spawnSync(PYTHON, ["-c", `import ${module}`], { encoding: "utf8" });
  if (probe.status !== 0) throw new Error(`${PYTHON} cannot import ${module}: apt-get install ${debianPackage}\n${probe.stderr}`);
}

describe("PyGithub (python3-github) drives the GitHub twin", () => {
  it("reads, writes, paginates, searches and sees GitHub's errors", async () => {
    requireModule("github", "python3-github");
    const sandbox = await createSandbox({ twins: ["github"] });
    const run = runPython("github_smoke.py", {
      POME_GITHUB_URL: sandbox.per_twin.github.api_url,
      POME_GITHUB_TOKEN: sandbox.provider_credentials.github.token,
    });
    expect(run.output).toContain("pygithub smoke passed");
    expect(run.status, run.output).toBe(0);
  });
});

describe("stripe-python (python3-stripe) drives the Stripe twin", () => {
  it("creates, pays, refunds, subscribes, paginates and sees Stripe's errors", async () => {
    requireModule("stripe", "python3-stripe");
    const sandbox = await createSandbox({ twins: ["stripe"] });
    const run = runPython("stripe_smoke.py", {
      POME_ORIGIN: pomeUrl(),
      POME_STRIPE_KEY: sandbox.provider_credentials.stripe.token,
    });
    expect(run.output).toContain("stripe-python smoke passed");
    expect(run.status, run.output).toBe(0);
  });
});

describe("google-api-python-client (python3-googleapi) drives the Gmail twin", () => {
  it("searches (round-3 operators too), reads full and raw, labels, sends raw and by multipart and resumable upload, changes settings, batches, and sees Google's errors", async () => {
    requireModule("googleapiclient.discovery", "python3-googleapi");
    const sandbox = await createSandbox({ twins: ["gmail"] });
    const run = runPython("gmail_smoke.py", {
      POME_ORIGIN: pomeUrl(),
      POME_GMAIL_TOKEN: sandbox.provider_credentials.gmail.token,
    });
    expect(run.output).toContain("google-api-python-client smoke passed");
    expect(run.status, run.output).toBe(0);
  });
});
