// `npm run dev` (wrangler dev with live reload) serves the same platform as `npm start`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_KEY, startDevServer, type DevServer } from "./server";

describe("npm run dev serves the platform through wrangler dev", () => {
  let dev: DevServer;
  beforeAll(async () => {
    dev = await startDevServer({ script: "dev" });
  });
  afterAll(async () => {
    await dev?.stop();
  });

  it("answers GET /v1/me with the local key, after applying the migrations itself", async () => {
    const res = await fetch(`${dev.url}/v1/me`, { headers: { authorization: `Bearer ${LOCAL_KEY}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { team: { slug: string } };
    expect(body.team.slug).toBe("local");
    expect(dev.output()).toContain("wrangler dev, reloading on every save");
    expect(dev.output()).toMatch(/D1 migrations: (\d+) of \1 applied/);
  });
});
