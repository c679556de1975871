import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LOCAL_KEY, startDevServer, type DevServer } from "./server";

describe("npm start serves the platform on 127.0.0.1", () => {
  it("answers GET /v1/me with the local key", async () => {
    const res = await fetch(`${inject("pomeUrl")}/v1/me`, { headers: { authorization: `Bearer ${LOCAL_KEY}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { team: { slug: string }; api_key: { id: string } };
    expect(body.team.slug).toBe("local");
    expect(body.api_key.id).toMatch(/^pme_/);
  });

  it("refuses an unknown key with the error envelope", async () => {
    const res = await fetch(`${inject("pomeUrl")}/v1/me`, { headers: { authorization: "Bearer pme_nope_nope" } });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { type: string; request_id: string } };
    expect(body.error.type).toBe("unauthorized");
    expect(body.error.request_id).toMatch(/^req_/);
  });
});

describe("npm start says once what it serves, where, with which key", () => {
  let server: DevServer;
  beforeAll(async () => {
    server = await startDevServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("prints one start-up block and nothing that reads like a prompt", () => {
    const out = server.output();
    expect(out.match(/the platform is up at/g)).toHaveLength(1);
    expect(out).toContain(`${server.url}/v1 `);
    expect(out).toContain(`${server.url}/mcp`);
    expect(out).toContain(`${server.url}/app/runs/`);
    expect(out).toMatch(new RegExp(`dashboard\\s+${server.url}/app\\n`));
    expect(out).toMatch(/judge\s+none: \[model\] criteria are skipped/);
    expect(out).toContain(`API key ${LOCAL_KEY}`);
    expect(out.match(/D1 migrations: (\d+) of \1 applied/g)).toHaveLength(1);
    expect(out).not.toMatch(/continue\?|fallback value|\?\s*$/im);
    // Served by Miniflare directly: no wrangler dev banner or request log.
    expect(out).not.toMatch(/wrangler|Ready on/i);
  });
});

describe("npm start answers straight from the Worker", () => {
  it("sends a response as the Worker wrote it: nothing in front re-encodes it", async () => {
    // Miniflare's entry worker, which `npm start` does not put in front of every call, would
    // gzip this JSON for a client that accepts it.
    const reply = await new Promise<{ status: number; encoding: string | undefined; body: string }>((resolve, reject) => {
      const req = http.get(
        `${inject("pomeUrl")}/v1/me`,
        { headers: { authorization: `Bearer ${LOCAL_KEY}`, "accept-encoding": "gzip, br" } },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => {
            body += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, encoding: res.headers["content-encoding"], body }));
        },
      );
      req.on("error", reject);
    });
    expect(reply.status).toBe(200);
    expect(reply.encoding).toBeUndefined();
    expect(JSON.parse(reply.body)).toMatchObject({ team: { slug: "local" } });
  });

  it("names the address when its port is already taken, in one line, before building anything", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const address = blocker.address();
    const taken = typeof address === "object" && address ? address.port : 0;
    try {
      const began = Date.now();
      await expect(startDevServer({ env: { PORT: String(taken) }, timeoutMs: 60_000 })).rejects.toThrow(
        new RegExp(`pome: npm start failed: 127\\.0\\.0\\.1:${taken} is already in use; .*PORT=`),
      );
      // The port is looked at first: not after the 30 s+ of bundling and migrating.
      expect(Date.now() - began).toBeLessThan(10_000);
    } finally {
      blocker.close();
    }
  });
});
