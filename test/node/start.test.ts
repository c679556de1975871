import { describe, expect, inject, it } from "vitest";
import { LOCAL_KEY } from "./server";

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
