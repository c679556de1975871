// Signed blob URLs: valid until they expire, and worthless once any part is changed.
import { describe, expect, it } from "vitest";
import { BLOB_URL_TTL_SECONDS, signBlobUrl, verifyBlobUrl } from "../../../workers/blobs/sign";
import { contentTypeForKey, plainBody } from "../../../workers/blobs/content-type";

const SECRET = "test-secret";
const KEY = "team-tm_1/session-ses_1/events.jsonl";
const NOW = Date.UTC(2026, 0, 1);

async function signed(op: "get" | "put" = "get") {
  const s = await signBlobUrl({ secret: SECRET, origin: "http://pome.test", key: KEY, op, now: NOW });
  const url = new URL(s.url);
  return { s, url, expires: url.searchParams.get("expires") ?? undefined, sig: url.searchParams.get("sig") ?? undefined };
}

describe("signed blob URLs", () => {
  it("carry the key in the path and expire after the TTL", async () => {
    const { s, url } = await signed();
    expect(url.pathname).toBe(`/_blobs/${KEY}`);
    expect(s.expiresIn).toBe(BLOB_URL_TTL_SECONDS);
    expect(s.expires).toBe(NOW / 1000 + 300);
  });

  it("verify before expiry and refuse at and after it", async () => {
    const { expires, sig } = await signed();
    expect(await verifyBlobUrl({ secrets: [SECRET], key: KEY, op: "get", expires, sig, now: NOW + 299_000 })).toBe("ok");
    expect(await verifyBlobUrl({ secrets: [SECRET], key: KEY, op: "get", expires, sig, now: NOW + 300_000 })).toBe("expired");
  });

  it("refuse a changed key, expiry, signature, operation or secret", async () => {
    const { expires, sig } = await signed();
    const base = { secrets: [SECRET], key: KEY, op: "get" as const, expires, sig, now: NOW };
    expect(await verifyBlobUrl({ ...base, key: "team-tm_1/session-ses_1/state_final.github.json" })).toBe("invalid");
    expect(await verifyBlobUrl({ ...base, expires: String(Number(expires) + 3600) })).toBe("invalid");
    expect(await verifyBlobUrl({ ...base, sig: `${sig?.slice(0, -1)}${sig?.endsWith("A") ? "B" : "A"}` })).toBe("invalid");
    expect(await verifyBlobUrl({ ...base, op: "put" })).toBe("invalid");
    expect(await verifyBlobUrl({ ...base, secrets: ["other"] })).toBe("invalid");
    expect(await verifyBlobUrl({ ...base, sig: undefined })).toBe("invalid");
    expect(await verifyBlobUrl({ ...base, expires: "soon" })).toBe("invalid");
  });

  it("keep working across a key rotation until they expire, and only under a key still accepted", async () => {
    // Minted under SECRET; then TOKEN_SECRET becomes "next" and SECRET moves to TOKEN_SECRET_PREVIOUS.
    const { expires, sig } = await signed();
    const base = { key: KEY, op: "get" as const, expires, sig };
    expect(await verifyBlobUrl({ ...base, secrets: ["next", SECRET], now: NOW + 299_000 })).toBe("ok");
    expect(await verifyBlobUrl({ ...base, secrets: ["next", SECRET], now: NOW + 300_000 })).toBe("expired");
    // Once the previous key is dropped the old URL is worthless, even before its expiry.
    expect(await verifyBlobUrl({ ...base, secrets: ["next"], now: NOW })).toBe("invalid");
    // And no key outside the list opens it, current or not.
    expect(await verifyBlobUrl({ ...base, secrets: [], now: NOW })).toBe("invalid");
  });
});

describe("blob content", () => {
  it("has a content type named by the key's extension", () => {
    expect(contentTypeForKey(KEY)).toBe("application/x-ndjson; charset=utf-8");
    expect(contentTypeForKey("a/state_final.github.json")).toBe("application/json; charset=utf-8");
    expect(contentTypeForKey("a/blob")).toBe("application/octet-stream");
  });

  it("is decompressed only when the upload declares gzip", async () => {
    const text = '{"seq":1}\n';
    const gz = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
    expect(new TextDecoder().decode(await plainBody(gz, "gzip"))).toBe(text);
    const plain = await new Blob([text]).arrayBuffer();
    expect(await plainBody(plain, undefined)).toBe(plain);
    expect(await plainBody(gz, undefined)).toBe(gz);
  });
});
