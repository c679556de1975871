import { describe, expect, it } from "vitest";
import { ApiError } from "../../../workers/errors";
import { ApiFailure, guarded, queryString, v1Client } from "../../../workers/mcp/control-api";

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe("control tools answer a refusal with the control plane's error envelope", () => {
  it("passes a failed /v1 call's envelope through unchanged", async () => {
    const envelope = '{"error":{"type":"not_found","message":"Run not found","details":{},"request_id":"req_1"}}';
    const result = await guarded("req_x", async () => {
      throw new ApiFailure({ status: 404, text: envelope, json: undefined });
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(envelope);
  });

  it("shapes an expected refusal from a plain function like the route would", async () => {
    const result = await guarded("req_x", async () => {
      throw new ApiError("bad_request", "twins not enabled", { error: "twins_not_enabled" });
    });
    expect(JSON.parse(textOf(result))).toEqual({
      error: { type: "bad_request", message: "twins not enabled", details: { error: "twins_not_enabled" }, request_id: "req_x" },
    });
  });

  it("never sends the cause of a bug", async () => {
    const result = await guarded("req_x", async () => {
      throw new TypeError("secret internals at line 12");
    });
    expect(textOf(result)).not.toContain("secret internals");
    expect(JSON.parse(textOf(result))).toMatchObject({ error: { type: "internal_error", request_id: "req_x" } });
  });
});

describe("the in-process /v1 client", () => {
  it("sends the caller's key and JSON, and reads JSON back", async () => {
    const seen: Request[] = [];
    const v1 = v1Client(
      async (req) => {
        seen.push(req);
        return new Response('{"ok":true}', { status: 201, headers: { "content-type": "application/json" } });
      },
      "http://pome.test",
      "Bearer pme_key",
    );
    expect(await v1.json("POST", "/v1/agents", { name: "a" })).toEqual({ ok: true });
    expect(seen[0].url).toBe("http://pome.test/v1/agents");
    expect(seen[0].headers.get("authorization")).toBe("Bearer pme_key");
    expect(await seen[0].json()).toEqual({ name: "a" });
  });

  it("throws the answer of a non-2xx call", async () => {
    const v1 = v1Client(
      async () => new Response('{"error":{}}', { status: 422, headers: { "content-type": "application/json" } }),
      "http://h",
      "Bearer k",
    );
    await expect(v1.json("GET", "/v1/x")).rejects.toMatchObject({ answer: { status: 422 } });
  });

  it("builds query strings from the defined values only", () => {
    expect(queryString({ group_id: "grp_1", task_name: undefined, limit: 5 })).toBe("?group_id=grp_1&limit=5");
    expect(queryString({ a: undefined })).toBe("");
  });
});
