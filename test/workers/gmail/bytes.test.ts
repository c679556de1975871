// Sizes as Gmail counts them, on the bytes: a non-ASCII body weighs its UTF-8 bytes, an 8-bit part
// in another charset and a binary attachment keep every byte, and a resumable upload's
// Content-Range counts bytes even where a chunk ends inside a character. Uploads go through
// googleapis where it reaches (multipart), raw HTTP in Google's documented form elsewhere (media
// with bytes that are not UTF-8, the resumable protocol googleapis does not speak); resumable
// sessions under way are exported and boot back resumable.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN, postJson } from "../helpers";
import { gError, gmailSandbox, gmailState } from "./client";

const encoder = new TextEncoder();
const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const fromBase64Url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** A UTF-8 message whose body is not ASCII (sent 8bit, as mail servers do). */
const UTF8_MESSAGE = [
  "From: Jürgen <jurgen@partner.test>",
  "To: agent@northwind.test",
  "Subject: Grüße",
  "Content-Type: text/plain; charset=UTF-8",
  "Content-Transfer-Encoding: 8bit",
  "",
  "Grüße aus Köln — 日本語のテキスト ✓",
].join("\r\n");

/** Every byte value, as a binary attachment carries them. */
const BLOB = Uint8Array.from({ length: 256 }, (_, i) => i);

/** A message with an ISO-8859-1 part sent 8bit (bytes that are not UTF-8) and a binary attachment. */
const LATIN1_MESSAGE = concat(
  latin1(
    [
      "From: Zoé <zoe@partner.test>",
      "To: agent@northwind.test",
      "Subject: Tarif",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain; charset=ISO-8859-1",
      "Content-Transfer-Encoding: 8bit",
      "",
      "Café crème à 3€",
      "--b1",
      'Content-Type: application/octet-stream; name="blob.bin"',
      'Content-Disposition: attachment; filename="blob.bin"',
      "Content-Transfer-Encoding: base64",
      "",
      toBase64(BLOB),
      "--b1--",
      "",
    ]
      .join("\r\n")
      .replace("€", "E"),
  ),
);

async function setup(seed?: unknown) {
  const { sandbox, gmail } = await gmailSandbox(seed);
  const token = sandbox.provider_credentials.gmail.token;
  const call = (url: string, init: { method: string; headers?: Record<string, string>; body?: Uint8Array | string }) =>
    SELF.fetch(url, { ...init, redirect: "manual", headers: { authorization: `Bearer ${token}`, ...init.headers } });
  return { sandbox, gmail, call };
}

describe("a message's size is its bytes", () => {
  it("counts a non-ASCII body in UTF-8 bytes and serves format=raw byte for byte (multipart upload through googleapis)", async () => {
    const { gmail } = await setup();
    const inserted = await gmail.users.messages.insert(
      { userId: "me", requestBody: { labelIds: ["INBOX"] }, media: { mimeType: "message/rfc822", body: UTF8_MESSAGE } },
      { rootUrl: `${ORIGIN}/` },
    );
    const sent = encoder.encode(UTF8_MESSAGE);
    expect(sent.length).toBeGreaterThan(UTF8_MESSAGE.length);
    const got = await gmail.users.messages.get({ userId: "me", id: inserted.data.id ?? "", format: "raw" });
    expect(got.data.sizeEstimate).toBe(sent.length);
    expect(fromBase64Url(got.data.raw ?? "")).toEqual(sent);
    const full = await gmail.users.messages.get({ userId: "me", id: inserted.data.id ?? "" });
    expect(full.data.snippet).toBe("Grüße aus Köln — 日本語のテキスト ✓");
  });

  it("keeps an 8-bit ISO-8859-1 part and a binary attachment byte for byte (media upload)", async () => {
    const { gmail, call } = await setup();
    const res = await call(`${ORIGIN}/upload/gmail/v1/users/me/messages?uploadType=media`, {
      method: "POST",
      headers: { "content-type": "message/rfc822" },
      body: LATIN1_MESSAGE,
    });
    expect(res.status).toBe(200);
    const { id } = await res.json<{ id: string }>();
    const raw = await gmail.users.messages.get({ userId: "me", id, format: "raw" });
    expect(raw.data.sizeEstimate).toBe(LATIN1_MESSAGE.length);
    expect(fromBase64Url(raw.data.raw ?? "")).toEqual(LATIN1_MESSAGE);
    const full = await gmail.users.messages.get({ userId: "me", id });
    expect(full.data.snippet).toBe("Café crème à 3E");
    const file = full.data.payload?.parts?.find((p) => p.filename === "blob.bin");
    expect(file?.body?.size).toBe(256);
    const attachment = await gmail.users.messages.attachments.get({ userId: "me", messageId: id, id: file?.body?.attachmentId ?? "" });
    expect(attachment.data.size).toBe(256);
    expect(fromBase64Url(attachment.data.data ?? "")).toEqual(BLOB);
  });
});

describe("a body past 1 MiB is refused as Google refuses a JSON body past its limit", () => {
  it("answers 400 with Google's words and the limit in bytes, sending nothing", async () => {
    const { gmail } = await setup();
    const big = btoa(`To: lee@partner.test\r\nSubject: Big\r\n\r\n${"x".repeat(800_000)}`);
    const e = await gError(gmail.users.messages.send({ userId: "me", requestBody: { raw: big } }));
    expect(e.status).toBe(400);
    expect(e.error).toMatchObject({ code: 400, message: "Request payload size exceeds the limit: 1048576 bytes." });
    expect((await gmail.users.messages.list({ userId: "me", q: "subject:Big" })).data.messages).toBeUndefined();
  });
});

describe("a resumable upload counts Content-Range in bytes", () => {
  it("takes a chunk that ends inside a multi-byte character and finishes with the exact bytes", async () => {
    const { gmail, call } = await setup();
    const bytes = encoder.encode(UTF8_MESSAGE);
    const open = await call(`${ORIGIN}/upload/gmail/v1/users/me/messages?uploadType=resumable`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-upload-content-type": "message/rfc822",
        "x-upload-content-length": String(bytes.length),
      },
      body: JSON.stringify({ labelIds: ["INBOX"] }),
    });
    const location = open.headers.get("location") ?? "";
    // "ü" of "Grüße" in the body is two bytes: the first chunk ends between them.
    const cut = bytes.length - encoder.encode("üße aus Köln — 日本語のテキスト ✓").length + 1;
    const first = await call(location, {
      method: "PUT",
      headers: { "content-range": `bytes 0-${cut - 1}/${bytes.length}` },
      body: bytes.slice(0, cut),
    });
    expect([first.status, first.headers.get("range")]).toEqual([308, `bytes=0-${cut - 1}`]);
    const last = await call(location, {
      method: "PUT",
      headers: { "content-range": `bytes ${cut}-${bytes.length - 1}/${bytes.length}` },
      body: bytes.slice(cut),
    });
    expect(last.status).toBe(200);
    const { id } = await last.json<{ id: string }>();
    const raw = await gmail.users.messages.get({ userId: "me", id, format: "raw" });
    expect(fromBase64Url(raw.data.raw ?? "")).toEqual(bytes);
    expect(raw.data.sizeEstimate).toBe(bytes.length);
  });
});

describe("an upload under way is state: exported, and resumable in a world booted from the export", () => {
  it("exports the session with its bytes and finishes it in a new sandbox seeded with that state", async () => {
    const { sandbox, call } = await setup();
    const bytes = encoder.encode(UTF8_MESSAGE);
    const open = await call(`${ORIGIN}/upload/gmail/v1/users/me/messages/import?uploadType=resumable&internalDateSource=dateHeader`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-upload-content-type": "message/rfc822",
        "x-upload-content-length": String(bytes.length),
      },
      body: JSON.stringify({ labelIds: ["INBOX", "UNREAD"] }),
    });
    const location = open.headers.get("location") ?? "";
    const uploadId = new URL(location).searchParams.get("upload_id");
    const first = await call(location, {
      method: "PUT",
      headers: { "content-range": `bytes 0-99/${bytes.length}` },
      body: bytes.slice(0, 100),
    });
    expect(first.status).toBe(308);
    const state = await gmailState(sandbox);
    expect(state.uploadSessions).toEqual([
      {
        id: uploadId,
        method: "POST",
        path: "/upload/gmail/v1/users/me/messages/import",
        query: "uploadType=resumable&internalDateSource=dateHeader",
        metadata: JSON.stringify({ labelIds: ["INBOX", "UNREAD"] }),
        total: bytes.length,
        received: expect.any(String),
        createdAt: expect.stringMatching(/^\d+$/),
      },
    ]);
    const kept = (state.uploadSessions as { received: string }[])[0]?.received ?? "";
    expect(fromBase64Url(kept)).toEqual(bytes.slice(0, 100));

    const restored = await setup(state);
    expect((await gmailState(restored.sandbox)).uploadSessions).toEqual(state.uploadSessions);
    const asked = await restored.call(location, { method: "PUT", headers: { "content-range": `bytes */${bytes.length}` } });
    expect([asked.status, asked.headers.get("range")]).toEqual([308, "bytes=0-99"]);
    const last = await restored.call(location, {
      method: "PUT",
      headers: { "content-range": `bytes 100-${bytes.length - 1}/${bytes.length}` },
      body: bytes.slice(100),
    });
    expect(last.status).toBe(200);
    const message = await last.json<{ id: string; labelIds: string[] }>();
    expect(message.labelIds).toEqual(["INBOX", "UNREAD"]);
    const raw = await restored.gmail.users.messages.get({ userId: "me", id: message.id, format: "raw" });
    expect(fromBase64Url(raw.data.raw ?? "")).toEqual(bytes);
    // A new session in the restored world does not take the seeded session's id.
    const another = await restored.call(`${ORIGIN}/upload/gmail/v1/users/me/messages?uploadType=resumable`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-upload-content-type": "message/rfc822" },
      body: "{}",
    });
    expect(new URL(another.headers.get("location") ?? "").searchParams.get("upload_id")).not.toBe(uploadId);
  });

  it("refuses a seeded session on a URI that takes no upload, or whose bytes do not decode or already fill its size", async () => {
    const validate = (uploadSessions: unknown[]) =>
      postJson("/v1/seeds/validate", { twins: ["gmail"], seed: { profile: { emailAddress: "agent@northwind.test" }, uploadSessions } });
    const wrongUri = await validate([{ id: "AHVrFxNb", method: "POST", path: "/upload/gmail/v1/users/me/labels", createdAt: "1" }]);
    expect(wrongUri.status).toBe(422);
    expect(JSON.stringify(await wrongUri.json())).toContain("uploadSessions[0].path");
    const badBytes = await validate([
      { id: "AHVrFxNa", method: "POST", path: "/upload/gmail/v1/users/me/messages/send", received: "!!!", createdAt: "1" },
      { id: "AHVrFxNc", method: "POST", path: "/upload/gmail/v1/users/me/messages", total: 3, received: "YWJj", createdAt: "1" },
    ]);
    expect(badBytes.status).toBe(422);
    const issues = (await badBytes.json<{ error: { details: { issues: { path: string }[] } } }>()).error.details.issues;
    expect(issues.map((i) => i.path)).toEqual(["uploadSessions[0].received", "uploadSessions[1].received"]);
  });
});
