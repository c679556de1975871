// The batch endpoint in Google's documented form (developers.google.com/gmail/api/guides/batch):
// a multipart/mixed body of application/http parts, answered multipart/mixed with a batch_
// boundary and one `Content-ID: <response-…>` part per call. No client library in node_modules
// sends one (googleapis dropped batch support), so the body is written as the guide writes it.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../helpers";
import { gmailTwin } from "../../../durable-objects/twins/gmail";
import { gmailSandbox, gmailTape, raw } from "./client";

const BOUNDARY = "batch_foobarbaz";

interface Part {
  id?: string;
  request: string;
  headers?: string[];
  body?: string;
}

/** A batch body as the guide shows it: each part its own headers, then the inner HTTP request. */
function batchBody(parts: readonly Part[]): string {
  const sections = parts.map((p) =>
    [
      `--${BOUNDARY}`,
      "Content-Type: application/http",
      ...(p.id ? [`Content-ID: <${p.id}>`] : []),
      "",
      `${p.request} HTTP/1.1`,
      ...(p.headers ?? []),
      "",
      p.body ?? "",
    ].join("\r\n"),
  );
  return `${sections.join("\r\n")}\r\n--${BOUNDARY}--\r\n`;
}

interface Answer {
  contentId: string;
  status: number;
  json: unknown;
}

/** Reads the multipart/mixed answer into its parts: Content-ID, the inner status and JSON body. */
function readAnswer(contentType: string, text: string): Answer[] {
  const boundary = /boundary=(\S+)/.exec(contentType)?.[1] ?? "";
  return text
    .split(`--${boundary}`)
    .slice(1)
    .filter((s) => !s.startsWith("--"))
    .map((section) => {
      const [outer, head, ...rest] = section.trim().split("\r\n\r\n");
      const body = rest.join("\r\n\r\n").trim();
      return {
        contentId: /Content-ID: <([^>]*)>/.exec(outer)?.[1] ?? "",
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
        json: body ? (JSON.parse(body) as unknown) : undefined,
      };
    });
}

async function setup(seed?: unknown) {
  const { sandbox, gmail } = await gmailSandbox(seed);
  const token = sandbox.provider_credentials.gmail.token;
  const post = (body: string, root = ORIGIN, contentType = `multipart/mixed; boundary=${BOUNDARY}`) =>
    SELF.fetch(`${root}/batch/gmail/v1`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      body,
    });
  return { sandbox, gmail, post };
}

describe("a batch runs each call through the twin's own routes and answers each in its part", () => {
  it("answers multipart/mixed with a batch_ boundary and a response-<id> part per call, in order", async () => {
    const { post, sandbox } = await setup();
    const res = await post(
      batchBody([
        { id: "item1:12930812@barnyard.example.com", request: "GET /gmail/v1/users/me/messages/19a0c0de0000a001?format=minimal" },
        { id: "item2", request: "GET /gmail/v1/users/me/labels/Label_99" },
        { request: "GET /gmail/v1/users/me/profile" },
      ]),
      sandbox.per_twin.gmail.api_url,
    );
    expect(res.status).toBe(200);
    const type = res.headers.get("content-type") ?? "";
    expect(type).toMatch(/^multipart\/mixed; boundary=batch_\S+$/);
    const answers = readAnswer(type, await res.text());
    expect(answers.map((a) => [a.contentId, a.status])).toEqual([
      ["response-item1:12930812@barnyard.example.com", 200],
      ["response-item2", 404],
      ["response-3", 200],
    ]);
    expect(answers[0].json).toMatchObject({ id: "19a0c0de0000a001" });
    expect(answers[1].json).toMatchObject({ error: { code: 404, message: "Requested entity was not found." } });
    expect(answers[2].json).toMatchObject({ emailAddress: "agent@northwind.test" });
  });

  it("writes what each call writes, with its JSON body and a message's raw form, refusals changing nothing", async () => {
    const { post, gmail, sandbox } = await setup();
    const message = raw(["To: lee@partner.test", "Subject: Batched", "", "Sent inside a batch."]);
    const res = await post(
      batchBody([
        {
          id: "modify",
          request: "POST /gmail/v1/users/me/messages/19a0c0de0000a001/modify",
          headers: ["Content-Type: application/json"],
          body: JSON.stringify({ addLabelIds: ["STARRED"] }),
        },
        {
          id: "send",
          request: "POST /gmail/v1/users/me/messages/send",
          headers: ["Content-Type: application/json"],
          body: JSON.stringify({ raw: message }),
        },
        {
          id: "bad",
          request: "POST /gmail/v1/users/me/messages/19a0c0de0000a002/modify",
          headers: ["Content-Type: application/json"],
          body: JSON.stringify({ addLabelIds: ["Label_99"] }),
        },
      ]),
    );
    const answers = readAnswer(res.headers.get("content-type") ?? "", await res.text());
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400]);
    const sent = answers[1].json as { id: string; labelIds: string[] };
    expect(sent.labelIds).toEqual(["SENT"]);
    const got = await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a001", format: "minimal" });
    expect(got.data.labelIds).toContain("STARRED");
    const subject = await gmail.users.messages.get({ userId: "me", id: sent.id, format: "metadata", metadataHeaders: ["Subject"] });
    expect(subject.data.payload?.headers).toEqual([{ name: "Subject", value: "Batched" }]);
    const untouched = await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a002", format: "minimal" });
    expect(untouched.data.labelIds).not.toContain("Label_99");
    // One request went over the wire: one row on the tape, supported.
    const rows = (await gmailTape(sandbox)).filter((r) => r.path === "/batch/gmail/v1");
    expect(rows.map((r) => [r.operation, r.fidelity, r.mutated])).toEqual([["gmail.batch", "supported", true]]);
  });
});

describe("a batch is refused as Google refuses it", () => {
  it("refuses more than 100 calls whole, with Google's words, and runs none of them", async () => {
    const { post, gmail } = await setup();
    const calls = Array.from({ length: 101 }, (_, i) => ({
      id: `star${i}`,
      request: "POST /gmail/v1/users/me/messages/19a0c0de0000a001/modify",
      headers: ["Content-Type: application/json"],
      body: JSON.stringify({ addLabelIds: ["STARRED"] }),
    }));
    const res = await post(batchBody(calls));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: 400, message: "Inner request count exceeds the limit. Received: 101, Limit: 100" },
    });
    const got = await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a001", format: "minimal" });
    expect(got.data.labelIds).not.toContain("STARRED");
    expect((await post(batchBody(calls.slice(0, 100)))).status).toBe(200);
  });

  it("refuses a nested batch and a media upload in their own parts, and a body that is not multipart/mixed", async () => {
    const { post } = await setup();
    const res = await post(
      batchBody([
        { id: "nested", request: "POST /batch/gmail/v1", headers: [`Content-Type: multipart/mixed; boundary=${BOUNDARY}`] },
        { id: "upload", request: "POST /upload/gmail/v1/users/me/messages/send?uploadType=media", body: "Subject: x\r\n\r\nx" },
        { id: "fine", request: "GET /gmail/v1/users/me/profile" },
      ]),
    );
    const answers = readAnswer(res.headers.get("content-type") ?? "", await res.text());
    expect(answers.map((a) => a.status)).toEqual([400, 400, 200]);
    expect(answers[0].json).toMatchObject({ error: { message: "Nested batch requests are not allowed" } });
    const notMultipart = await post("{}", ORIGIN, "application/json");
    expect(notMultipart.status).toBe(400);
    expect(await notMultipart.json()).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
  });

  it("marks the batch's tape row unsupported when a call asks for a method the twin does not serve", async () => {
    const { post, sandbox } = await setup();
    const res = await post(batchBody([{ id: "cse", request: "GET /gmail/v1/users/me/settings/cse/identities" }]));
    const answers = readAnswer(res.headers.get("content-type") ?? "", await res.text());
    expect(answers[0].status).toBe(404);
    const rows = (await gmailTape(sandbox)).filter((r) => r.path === "/batch/gmail/v1");
    expect(rows.map((r) => r.fidelity)).toEqual(["unsupported"]);
  });
});

describe("a seeded fault meets the call it names inside a batch as it would the call alone", () => {
  const modify = (id: string, label: string): Part => ({
    id,
    request: "POST /gmail/v1/users/me/messages/19a0c0de0000a001/modify",
    headers: ["Content-Type: application/json"],
    body: JSON.stringify({ addLabelIds: [label] }),
  });

  it("answers the faulted inner call in its own part with Google's error, changing nothing, the others served", async () => {
    const seed = {
      ...gmailTwin.defaultSeed(),
      faults: [
        { operation: "gmail.users.messages.modify", status: 429, reason: "rateLimitExceeded", skip: 1, times: 1 },
        { operation: "gmail.users.getProfile", status: 503, reason: "backendError" },
      ],
    };
    const { post, gmail, sandbox } = await setup(seed);
    const res = await post(
      batchBody([
        modify("first", "STARRED"),
        modify("second", "IMPORTANT"),
        modify("third", "CATEGORY_SOCIAL"),
        { id: "profile", request: "GET /gmail/v1/users/me/profile" },
      ]),
    );
    expect(res.status).toBe(200);
    const answers = readAnswer(res.headers.get("content-type") ?? "", await res.text());
    expect(answers.map((a) => [a.contentId, a.status])).toEqual([
      ["response-first", 200],
      ["response-second", 429],
      ["response-third", 200],
      ["response-profile", 503],
    ]);
    expect(answers[1].json).toEqual({
      error: {
        code: 429,
        message: "Rate Limit Exceeded",
        errors: [{ message: "Rate Limit Exceeded", domain: "usageLimits", reason: "rateLimitExceeded" }],
        status: "RESOURCE_EXHAUSTED",
      },
    });
    expect(answers[3].json).toMatchObject({ error: { code: 503, errors: [{ reason: "backendError" }] } });
    const got = await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a001", format: "minimal" });
    expect(got.data.labelIds).toEqual(expect.arrayContaining(["STARRED", "CATEGORY_SOCIAL"]));
    expect(got.data.labelIds).not.toContain("IMPORTANT");
    // The fault's one time is spent: the same call again is served.
    const second = await post(batchBody([modify("again", "IMPORTANT")]));
    const again = readAnswer(second.headers.get("content-type") ?? "", await second.text());
    expect(again.map((a) => a.status)).toEqual([200]);
    const rows = (await gmailTape(sandbox)).filter((r) => r.path === "/batch/gmail/v1");
    expect(rows.map((r) => [r.status, r.fidelity])).toEqual([
      [200, "supported"],
      [200, "supported"],
    ]);
  });

  it("counts the calls a batch carries with the calls sent alone, so skip and times run over both", async () => {
    const seed = {
      ...gmailTwin.defaultSeed(),
      faults: [{ operation: "gmail.users.messages.modify", status: 429, reason: "rateLimitExceeded", skip: 1, times: 1 }],
    };
    const { post, gmail } = await setup(seed);
    // The first modify, sent alone, is the one the fault skips.
    await gmail.users.messages.modify({ userId: "me", id: "19a0c0de0000a001", requestBody: { addLabelIds: ["STARRED"] } });
    const batched = await post(batchBody([modify("second", "IMPORTANT"), modify("third", "CATEGORY_SOCIAL")]));
    const answers = readAnswer(batched.headers.get("content-type") ?? "", await batched.text());
    expect(answers.map((a) => [a.contentId, a.status])).toEqual([
      ["response-second", 429],
      ["response-third", 200],
    ]);
    // Its one time is spent: the next call alone is served.
    const after = await gmail.users.messages.modify({ userId: "me", id: "19a0c0de0000a001", requestBody: { addLabelIds: ["IMPORTANT"] } });
    expect(after.data.labelIds).toEqual(expect.arrayContaining(["STARRED", "IMPORTANT", "CATEGORY_SOCIAL"]));
  });
});
