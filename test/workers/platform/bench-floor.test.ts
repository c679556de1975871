// The benchmark's two reference routes: the floor (router → a sandbox's Durable Object → a fixed
// body) and the router alone (the same body without the Durable Object). A deployment keeps both
// off; the bench turns them on and compares every twin call with them.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../helpers";
import { callWith } from "./with-settings";

const on = { ...env, BENCH_FLOOR_ENABLED: "true" };
const off = { ...env, BENCH_FLOOR_ENABLED: "false" };

describe("benchmark reference routes", () => {
  it("answer the same fixed body from the router alone and from a sandbox's Durable Object", async () => {
    const sandbox = await createSandbox();
    const router = await callWith(on, "/_bench/router");
    const floor = await callWith(on, `/_bench/floor/${sandbox.session_id}`);
    for (const res of [router, floor]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await res.text()).toBe('{"ok":true}');
    }
    // Neither is a twin call: the sandbox's tape stays empty.
    const health = await callWith(on, `${sandbox.per_twin.github.api_url}/_pome/health`, { bearer: sandbox.agent_token });
    expect((await health.json<{ tape_length: number }>()).tape_length).toBe(0);
  });

  it("are not found unless BENCH_FLOOR_ENABLED is true", async () => {
    const sandbox = await createSandbox();
    for (const path of ["/_bench/router", `/_bench/floor/${sandbox.session_id}`]) {
      const res = await callWith(off, path);
      expect(res.status).toBe(404);
      expect((await res.json<{ error: { type: string } }>()).error.type).toBe("not_found");
    }
  });
});
