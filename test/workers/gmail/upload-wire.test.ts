// The wire forms of the batch endpoint and resumable uploads, as pure functions: a batch body in
// Google's documented form reads back as the calls written into it, any text at all reads without
// throwing, and Content-Range reads only what Google's protocol writes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCall, readBatch, writeBatch } from "../../../durable-objects/twins/gmail/batch-wire";
import { sessionUsable } from "../../../durable-objects/twins/gmail/resumable";
import { completes, readRange } from "../../../durable-objects/twins/gmail/upload-range";

const BOUNDARY = "batch_property";
const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
const call = fc.record({
  id: fc.option(fc.stringMatching(/^[A-Za-z0-9:@._-]{1,20}$/), { nil: undefined }),
  method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"),
  path: fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/gmail/v1/users/me/${s.join("/")}`),
  query: fc.option(fc.stringMatching(/^[a-z]{1,6}=[A-Za-z0-9]{0,6}$/), { nil: undefined }),
  // Any body text but the delimiter itself (a part's body cannot hold its batch's boundary).
  body: fc.string({ maxLength: 80 }).filter((b) => !b.includes(`--${BOUNDARY}`) && !/^\r?\n/.test(b) && !/\r?\n$/.test(b)),
});

type Call = { id?: string; method: string; path: string; query?: string; body: string };

/** A batch body as the guide writes one. */
function written(calls: readonly Call[]) {
  return `${calls
    .map((c) =>
      [
        `--${BOUNDARY}`,
        "Content-Type: application/http",
        ...(c.id ? [`Content-ID: <${c.id}>`] : []),
        "",
        `${c.method} ${c.path}${c.query ? `?${c.query}` : ""} HTTP/1.1`,
        "Content-Type: application/json",
        "",
        c.body,
      ].join("\r\n"),
    )
    .join("\r\n")}\r\n--${BOUNDARY}--\r\n`;
}

describe("a batch body in Google's form reads back as the calls written into it", () => {
  it("gives each part's method, path, query, body and Content-ID (or its position), in order", () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 8 }), (calls) => {
        const read = readBatch(`multipart/mixed; boundary="${BOUNDARY}"`, written(calls));
        if (!("parts" in read)) throw new Error(read.problem);
        expect(read.parts).toHaveLength(calls.length);
        read.parts.forEach((part, i) => {
          const c = calls[i];
          if (!isCall(part)) throw new Error(part.problem);
          expect(part).toMatchObject({
            contentId: c.id ?? String(i + 1),
            method: c.method,
            path: c.path,
            query: c.query ?? "",
            body: c.body,
          });
        });
      }),
    );
  });

  it("reads any text under any content type without throwing, as a batch or as why it is not one", () => {
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: undefined }), fc.string({ maxLength: 400 }), (type, body) => {
        const read = readBatch(type, body);
        expect("parts" in read || "problem" in read).toBe(true);
      }),
    );
  });

  it("writes one response-<id> part per answer, each with its status line and byte length", () => {
    const body = writeBatch("batch_x", [
      { contentId: "a", status: 200, headers: { "content-type": "application/json" }, body: '{"é":1}' },
      { contentId: "b", status: 204, headers: {}, body: "" },
    ]);
    expect(body).toContain("Content-ID: <response-a>\r\n\r\nHTTP/1.1 200 OK\r\ncontent-type: application/json\r\nContent-Length: 8\r\n");
    expect(body).toContain("Content-ID: <response-b>\r\n\r\nHTTP/1.1 204 No Content\r\n");
    expect(body.endsWith("--batch_x--\r\n")).toBe(true);
  });
});

describe("Content-Range reads only what Google's upload protocol writes", () => {
  it("reads chunks, status queries and the whole media, and refuses a range past its total", () => {
    expect(readRange(undefined)).toEqual({ kind: "whole" });
    expect(readRange("bytes */2000")).toEqual({ kind: "status", total: 2000 });
    expect(readRange("bytes */*")).toEqual({ kind: "status", total: undefined });
    expect(readRange("bytes 0-524287/2000000")).toEqual({ kind: "chunk", first: 0, last: 524287, total: 2000000 });
    expect(readRange("bytes 0-9/*")).toEqual({ kind: "chunk", first: 0, last: 9, total: undefined });
    expect(readRange("bytes 5-4/10").kind).toBe("invalid");
    expect(readRange("bytes 0-10/10").kind).toBe("invalid");
    expect(readRange("items 0-1/2").kind).toBe("invalid");
  });

  it("never throws, and a chunk it reads always lies within its total", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.tuple(fc.nat(), fc.nat(), fc.nat()).map(([a, b, n]) => `bytes ${a}-${b}/${n}`),
        ),
        (header) => {
          const range = readRange(header);
          if (range.kind === "chunk") {
            expect(range.first).toBeLessThanOrEqual(range.last);
            if (range.total !== undefined) expect(range.last).toBeLessThan(range.total);
          }
        },
      ),
    );
  });

  it("ends an upload only with the chunk that follows on and reaches the total", () => {
    const session = { receivedBytes: 10, total: 20 };
    expect(completes(session, { kind: "chunk", first: 10, last: 19, total: 20 }, 10)).toBe(true);
    expect(completes(session, { kind: "chunk", first: 10, last: 18, total: 20 }, 9)).toBe(false);
    expect(completes(session, { kind: "chunk", first: 12, last: 19, total: 20 }, 8)).toBe(false);
    expect(completes({ receivedBytes: 0, total: null }, { kind: "whole" }, 5)).toBe(true);
    expect(completes(session, { kind: "whole" }, 20)).toBe(false);
  });
});

describe("an upload session lasts a week, on the URI it was opened on", () => {
  it("takes chunks on its own URI until a week has passed, and nowhere else", () => {
    const week = 7 * 24 * 3600 * 1000;
    const session = {
      id: "AHVrFxN000001",
      method: "POST",
      path: "/upload/gmail/v1/users/me/messages/send",
      query: "uploadType=resumable",
      metadata: "{}",
      total: null,
      received: new Uint8Array(),
      receivedBytes: 0,
      createdAt: 1_000,
    };
    expect(sessionUsable(session, session.path, 1_000 + week - 1)).toBe(true);
    expect(sessionUsable(session, session.path, 1_000 + week)).toBe(false);
    expect(sessionUsable(session, "/upload/gmail/v1/users/me/messages/import", 2_000)).toBe(false);
  });
});
