// Rotating TOKEN_SECRET: everything is signed with the current key and accepted under the current
// or the previous one, so a sandbox started before the rotation keeps working, and so do download
// URLs minted before it, until they expire. Each step runs the real router with the settings a
// deployment would have at that moment (before, during, after the rotation).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CreatedSandbox } from "../helpers";
import { REQUIRED, code } from "../grading/run-helpers";
import { callWith as call, sandboxWith as sandboxUnder } from "./with-settings";

const OLD = "rotation-test-old-key";
const NEW = "rotation-test-new-key";

/** The deployment's settings at one moment of the rotation. */
const before = { ...env, TOKEN_SECRET: OLD };
const during = { ...env, TOKEN_SECRET: NEW, TOKEN_SECRET_PREVIOUS: OLD };
const after = { ...env, TOKEN_SECRET: NEW };

const readIssue = (settings: Env, sandbox: CreatedSandbox, bearer: string) =>
  call(settings, `${sandbox.per_twin.github.api_url}/repos/acme/api/issues/1`, { bearer });
const readIssueAtRoot = (settings: Env, bearer: string) => call(settings, "/repos/acme/api/issues/1", { bearer });

describe("rotating TOKEN_SECRET", () => {
  it("keeps a live sandbox's agent_token and provider credential working while the old key is the previous one", async () => {
    const sandbox = await sandboxUnder(before);
    const pat = sandbox.provider_credentials.github.token;
    expect((await readIssue(before, sandbox, sandbox.agent_token)).status).toBe(200);

    expect((await readIssue(during, sandbox, sandbox.agent_token)).status).toBe(200);
    expect((await readIssue(during, sandbox, pat)).status).toBe(200);
    expect((await readIssueAtRoot(during, pat)).status).toBe(200);

    // Once the previous key is dropped, credentials signed with it open nothing.
    expect((await readIssue(after, sandbox, sandbox.agent_token)).status).toBe(401);
    expect((await readIssue(after, sandbox, pat)).status).toBe(401);
    expect((await readIssueAtRoot(after, pat)).status).toBe(401);
  });

  it("signs new sandboxes with the current key, so they outlive the previous one", async () => {
    const sandbox = await sandboxUnder(during);
    for (const settings of [during, after]) {
      expect((await readIssue(settings, sandbox, sandbox.agent_token)).status).toBe(200);
      expect((await readIssue(settings, sandbox, sandbox.provider_credentials.github.token)).status).toBe(200);
    }
    // The old key alone does not accept what the new key signed.
    expect((await readIssue(before, sandbox, sandbox.agent_token)).status).toBe(401);
  });

  it("accepts a discard token handed out before the rotation", async () => {
    const sandbox = await sandboxUnder(before);
    const refused = await call(before, `/v1/sandboxes/${sandbox.session_id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    const { error } = await refused.json<{ error: { details: { discard_token: string } } }>();
    const token = error.details.discard_token;

    const stale = await call(after, `/v1/sandboxes/${sandbox.session_id}?confirm_discard=${token}`, { method: "DELETE" });
    expect(stale.status).toBe(422);
    const res = await call(during, `/v1/sandboxes/${sandbox.session_id}?confirm_discard=${token}`, { method: "DELETE" });
    expect(res.status).toBeLessThan(300);
  });

  it("keeps a signed download URL minted before the rotation working, and mints new ones with the current key", async () => {
    const sandbox = await sandboxUnder(before);
    expect((await readIssue(before, sandbox, sandbox.agent_token)).status).toBe(200);
    const finalized = await call(before, `/v1/sandboxes/${sandbox.session_id}/finalize`, {
      method: "POST",
      body: JSON.stringify({ ...REQUIRED, criteria: [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })] }),
    });
    expect(finalized.status).toBe(200);
    const { run_id } = await finalized.json<{ run_id: string }>();
    const minted = await call(before, `/v1/runs/${run_id}/trace`);
    expect(minted.status).toBe(200);
    const { url } = await minted.json<{ url: string }>();

    expect((await call(before, url)).status).toBe(200);
    const download = await call(during, url);
    expect(download.status).toBe(200);
    expect(new TextDecoder().decode(await download.arrayBuffer())).toContain("/repos/acme/api/issues/1");
    expect((await call(after, url)).status).toBe(403);

    const fresh = await (await call(during, `/v1/runs/${run_id}/trace`)).json<{ url: string }>();
    expect((await call(after, fresh.url)).status).toBe(200);
    expect((await call(before, fresh.url)).status).toBe(403);
  });
});
