// The batch endpoint at `/batch`, where Google's Python client sends it: `new_batch_http_request()`
// posts to the discovery document's rootUrl + batchPath, and Gmail's document says "batch"
// (googleapiclient/discovery.py; test/fixtures/service-specs/gmail/gmail.v1.json). The body is
// written as that client writes it (http.py, BatchHttpRequest: MIME-Version and
// Content-Transfer-Encoding on each part, Content-ID `<base + n>`); the client itself runs against
// the platform in test/clients/python/gmail_smoke.py (`npm run test:clients`).
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../helpers";
import { gmailSandbox, gmailTape } from "./client";

const BOUNDARY = "===============7330845974216740156==";

function pythonBatch(calls: readonly string[]): string {
  const parts = calls.map((request, i) =>
    [
      `--${BOUNDARY}`,
      "Content-Type: application/http",
      "MIME-Version: 1.0",
      "Content-Transfer-Encoding: binary",
      `Content-ID: <0c1d2e3f-0000-4000-8000-000000000000 + ${i + 1}>`,
      "",
      `${request} HTTP/1.1`,
      "accept: application/json",
      "",
      "",
    ].join("\r\n"),
  );
  return `${parts.join("")}--${BOUNDARY}--`;
}

describe("a batch posted to /batch, as Google's Python client posts it", () => {
  it("runs each call and answers each in its part, one gmail.batch row on the tape", async () => {
    const { sandbox } = await gmailSandbox();
    const res = await SELF.fetch(`${ORIGIN}/batch`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${sandbox.provider_credentials.gmail.token}`,
        "content-type": `multipart/mixed; boundary="${BOUNDARY}"`,
      },
      body: pythonBatch([
        "GET /gmail/v1/users/me/messages/19a0c0de0000a001?format=minimal&alt=json",
        "GET /gmail/v1/users/me/messages/00000000deadbeef?alt=json",
      ]),
    });
    expect(res.status).toBe(200);
    const type = res.headers.get("content-type") ?? "";
    expect(type).toMatch(/^multipart\/mixed; boundary=batch_\S+$/);
    const text = await res.text();
    expect([...text.matchAll(/Content-ID: <([^>]*)>/g)].map((m) => m[1])).toEqual([
      "response-0c1d2e3f-0000-4000-8000-000000000000 + 1",
      "response-0c1d2e3f-0000-4000-8000-000000000000 + 2",
    ]);
    expect([...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]))).toEqual([200, 404]);
    expect(text).toContain('"id":"19a0c0de0000a001"');
    const rows = (await gmailTape(sandbox)).filter((r) => r.path === "/batch");
    expect(rows.map((r) => [r.operation, r.fidelity])).toEqual([["gmail.batch", "supported"]]);
  });
});
