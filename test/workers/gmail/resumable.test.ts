// Resumable uploads (uploadType=resumable) in Google's documented form
// (developers.google.com/gmail/api/guides/uploads, "Resumable upload"). googleapis cannot make one
// (googleapis-common 9.3.1's apirequest.js sends only `multipart` or `media`), so these calls are
// raw HTTP, as the guide writes them; the finished message is then read through googleapis.
import { SELF } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../helpers";
import { gmailSandbox, gmailTape } from "./client";

const MESSAGE = ["To: lee@partner.test", "Subject: Resumable", "Content-Type: text/plain; charset=UTF-8", "", "Sent in pieces."].join(
  "\r\n",
);
const bytes = (text: string) => new TextEncoder().encode(text).length;

async function setup() {
  const { sandbox, gmail } = await gmailSandbox();
  const token = sandbox.provider_credentials.gmail.token;
  const call = (url: string, init: { method: string; headers?: Record<string, string>; body?: string }) =>
    SELF.fetch(url, { ...init, redirect: "manual", headers: { authorization: `Bearer ${token}`, ...init.headers } });
  /** Step 1: opens a session at `path` and gives back the session URI. */
  async function open(path: string, metadata: unknown, headers: Record<string, string> = {}, method = "POST", root = ORIGIN) {
    const res = await call(`${root}${path}?uploadType=resumable`, {
      method,
      headers: { "content-type": "application/json; charset=UTF-8", "x-upload-content-type": "message/rfc822", ...headers },
      body: JSON.stringify(metadata),
    });
    return { res, location: res.headers.get("location") ?? "" };
  }
  return { sandbox, gmail, call, open };
}

describe("a resumable upload opens a session and answers with its URI", () => {
  it("answers 200 with an empty body and a Location on the same upload URI, under either root", async () => {
    const { sandbox, open } = await setup();
    const { res, location } = await open("/upload/gmail/v1/users/me/messages/send", {}, { "x-upload-content-length": "100" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    expect(location).toMatch(new RegExp(`^${ORIGIN}/upload/gmail/v1/users/me/messages/send\\?uploadType=resumable&upload_id=\\S+$`));
    const api = sandbox.per_twin.gmail.api_url;
    const prefixed = await open("/upload/gmail/v1/users/me/messages/send", {}, {}, "POST", api);
    expect(prefixed.location.startsWith(`${api}/upload/gmail/v1/users/me/messages/send?uploadType=resumable&upload_id=`)).toBe(true);
  });

  it("refuses media Gmail does not take and sizes past Gmail's 35 MB or the twin's bound", async () => {
    const { open } = await setup();
    const path = "/upload/gmail/v1/users/me/messages/send";
    const wrongType = await open(path, {}, { "x-upload-content-type": "image/png" });
    expect(wrongType.res.status).toBe(400);
    expect(await wrongType.res.json()).toMatchObject({
      error: { code: 400, message: "Media type 'image/png' is not supported. Valid media types: [message/*]" },
    });
    const huge = await open(path, {}, { "x-upload-content-length": String(36 * 1024 * 1024) });
    expect(huge.res.status).toBe(413);
    expect(await huge.res.json()).toMatchObject({
      error: { code: 413, message: "Request Entity Too Large", errors: [{ reason: "uploadTooLarge" }] },
    });
    const pastBound = await open(path, {}, { "x-upload-content-length": String(2 * 1024 * 1024) });
    expect(pastBound.res.status).toBe(413);
  });
});

describe("the media goes to the session URI, whole or in chunks, and the last answer is the method's", () => {
  it("sends a message PUT whole, answered with the message resource", async () => {
    const { gmail, call, open } = await setup();
    const { location } = await open("/upload/gmail/v1/users/me/messages/send", {}, { "x-upload-content-length": String(bytes(MESSAGE)) });
    const put = await call(location, { method: "PUT", headers: { "content-type": "message/rfc822" }, body: MESSAGE });
    expect(put.status).toBe(200);
    const sent = await put.json<{ id: string; threadId: string; labelIds: string[] }>();
    expect(sent.labelIds).toEqual(["SENT"]);
    const got = await gmail.users.messages.get({ userId: "me", id: sent.id, format: "metadata", metadataHeaders: ["Subject"] });
    expect(got.data.payload?.headers).toEqual([{ name: "Subject", value: "Resumable" }]);
    // The session is spent: the same URI now names nothing.
    expect((await call(location, { method: "PUT", body: MESSAGE })).status).toBe(404);
  });

  it("takes chunks with Content-Range, answering 308 Resume Incomplete with the Range kept", async () => {
    const { call, open } = await setup();
    const total = bytes(MESSAGE);
    const { location } = await open("/upload/gmail/v1/users/me/messages/send", {}, { "x-upload-content-length": String(total) });
    const status = await call(location, { method: "PUT", headers: { "content-range": `bytes */${total}` } });
    expect(status.status).toBe(308);
    expect(status.headers.get("range")).toBeNull();
    const first = await call(location, { method: "PUT", headers: { "content-range": `bytes 0-19/${total}` }, body: MESSAGE.slice(0, 20) });
    expect(first.status).toBe(308);
    expect(first.headers.get("range")).toBe("bytes=0-19");
    const asked = await call(location, { method: "PUT", headers: { "content-range": `bytes */${total}` } });
    expect(asked.headers.get("range")).toBe("bytes=0-19");
    // A chunk that does not follow on is not taken; the answer says where to resume.
    const gap = await call(location, { method: "PUT", headers: { "content-range": `bytes 30-39/${total}` }, body: MESSAGE.slice(30, 40) });
    expect([gap.status, gap.headers.get("range")]).toEqual([308, "bytes=0-19"]);
    const last = await call(location, {
      method: "PUT",
      headers: { "content-range": `bytes 20-${total - 1}/${total}` },
      body: MESSAGE.slice(20),
    });
    expect(last.status).toBe(200);
    expect(await last.json()).toMatchObject({ labelIds: ["SENT"] });
  });

  it("refuses a wrong size, a chunk whose body is not the range it names, and an unknown session", async () => {
    const { call, open } = await setup();
    const total = bytes(MESSAGE);
    const { location } = await open("/upload/gmail/v1/users/me/messages/send", {}, { "x-upload-content-length": String(total) });
    const shortWhole = await call(location, { method: "PUT", body: MESSAGE.slice(1) });
    expect(shortWhole.status).toBe(400);
    const otherTotal = await call(location, {
      method: "PUT",
      headers: { "content-range": `bytes 0-9/${total + 5}` },
      body: MESSAGE.slice(0, 10),
    });
    expect(otherTotal.status).toBe(400);
    const lying = await call(location, { method: "PUT", headers: { "content-range": `bytes 0-9/${total}` }, body: MESSAGE.slice(0, 5) });
    expect(lying.status).toBe(400);
    const unknown = location.replace(/upload_id=[^&]+/, "upload_id=AHVrFxNnothing");
    const missing = await call(unknown, { method: "PUT", body: MESSAGE });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
    // None of the refusals took a byte: the whole message still completes the session.
    expect((await call(location, { method: "PUT", body: MESSAGE })).status).toBe(200);
  });
});

describe("every message upload method takes the resumable form", () => {
  it("imports with the session's metadata and query, creates and updates a draft", async () => {
    const { gmail, call, open, sandbox } = await setup();
    const imported = await open("/upload/gmail/v1/users/me/messages/import", { labelIds: ["INBOX"] });
    const done = await call(imported.location, { method: "PUT", body: MESSAGE });
    const message = await done.json<{ id: string; labelIds: string[] }>();
    expect(message.labelIds).toEqual(["INBOX"]);
    const inserted = await open("/upload/gmail/v1/users/me/messages", {});
    expect((await call(inserted.location, { method: "PUT", body: MESSAGE })).status).toBe(200);

    const created = await open("/upload/gmail/v1/users/me/drafts", {});
    const draft = await (await call(created.location, { method: "PUT", body: MESSAGE })).json<{ id: string }>();
    expect(draft.id).toBeTruthy();
    const edited = MESSAGE.replace("Subject: Resumable", "Subject: Edited");
    const updated = await open(`/upload/gmail/v1/users/me/drafts/${draft.id}`, {}, {}, "PUT");
    expect(updated.res.status).toBe(200);
    expect((await call(updated.location, { method: "PUT", body: edited })).status).toBe(200);
    const got = await gmail.users.drafts.get({ userId: "me", id: draft.id, format: "metadata" });
    expect(got.data.message?.payload?.headers?.find((h) => h.name === "Subject")?.value).toBe("Edited");

    const tape = await gmailTape(sandbox);
    const finishing = tape.filter((r) => r.status === 200 && r.path.startsWith("/upload/")).map((r) => r.operation);
    expect(finishing).toContain("gmail.users.messages.import");
    expect(finishing).toContain("gmail.users.drafts.update");
  });
});

describe("a message uploaded in chunks is the message, however it is cut", () => {
  it("imports the same bytes for any cut into chunks, each unfinished chunk answered 308", async () => {
    const { gmail, call, open } = await setup();
    const text = `${MESSAGE}\r\nA second line, and a third: long enough to cut in many places.`;
    const total = bytes(text);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: total - 1 }), { maxLength: 5 }), async (cuts) => {
        const ends = [...cuts.sort((a, b) => a - b), total];
        const { location } = await open("/upload/gmail/v1/users/me/messages/import", {}, { "x-upload-content-length": String(total) });
        let from = 0;
        let last: Response | undefined;
        for (const end of ends) {
          last = await call(location, {
            method: "PUT",
            headers: { "content-range": `bytes ${from}-${end - 1}/${total}` },
            body: text.slice(from, end),
          });
          if (end < total) expect([last.status, last.headers.get("range")]).toEqual([308, `bytes=0-${end - 1}`]);
          from = end;
        }
        if (!last) throw new Error("no chunk was sent");
        expect(last.status).toBe(200);
        const { id } = (await last.json()) as { id: string };
        const got = await gmail.users.messages.get({ userId: "me", id, format: "raw" });
        expect(Buffer.from(got.data.raw ?? "", "base64url").toString("utf8")).toBe(text);
      }),
      { numRuns: 6 },
    );
  });
});
