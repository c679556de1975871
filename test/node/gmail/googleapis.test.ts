// googleapis as a user runs it in Node (its own transport, Node streams for uploads), against the
// running platform, configured exactly as the README says.
import { google } from "googleapis";
import { describe, expect, it } from "vitest";
import { createSandbox, pomeUrl, tapeOf } from "../mcp/helpers";

describe("googleapis in Node against the running Gmail twin", () => {
  it("lists, sends through a multipart upload, and reads back", async () => {
    const sandbox = await createSandbox({ twins: ["gmail"] });
    const auth = new google.auth.OAuth2();
    auth.setCredentials({ access_token: sandbox.provider_credentials.gmail.token, expiry_date: Date.now() + 3600e3 });
    const rootUrl = `${pomeUrl()}/`;
    const gmail = google.gmail({ version: "v1", auth, rootUrl, retry: false });
    const { data } = await gmail.users.messages.list({ userId: "me", q: "is:unread", maxResults: 2 });
    expect(data.messages).toHaveLength(2);
    const mime = ["To: lee@partner.test", "Subject: From Node", "", "Uploaded with Node streams."].join("\r\n");
    const sent = await gmail.users.messages.send(
      { userId: "me", requestBody: {}, media: { mimeType: "message/rfc822", body: mime } },
      { rootUrl },
    );
    const back = await gmail.users.messages.get({ userId: "me", id: sent.data.id ?? "", format: "full" });
    expect(back.data.snippet).toBe("Uploaded with Node streams.");
    const missing = await gmail.users.messages.get({ userId: "me", id: "00000000deadbeef" }).catch((e: { status?: number }) => e.status);
    expect(missing).toBe(404);
    const tape = await tapeOf(sandbox, "gmail");
    expect(tape.map((r) => r.operation)).toEqual([
      "gmail.users.messages.list",
      "gmail.users.messages.send",
      "gmail.users.messages.get",
      "gmail.users.messages.get",
    ]);
  });
});
