// Raw messages as mail servers write them: text bodies in 7bit or quoted-printable (never
// base64), attachments in base64, and mail that arrived or was sent as RFC 822 served in
// `format=raw` with its own bytes.
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { quotedPrintable, textEncodingOf } from "../../../durable-objects/twins/gmail/mime";
import { gmailSandbox, raw } from "./client";

const fromB64url = (s: string) => {
  const binary = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
};
/** A parsed body with `\n` line ends and no final one, as postal-mime gives it back. */
const oneLineEnd = (text: string | undefined) => (text ?? "").replace(/\r\n/g, "\n").replace(/\n$/, "");
const from = [{ name: "From", value: "Dana <dana@customer.test>" }];

describe("text is written 7bit when it can be, quoted-printable otherwise", () => {
  it("chooses 7bit for short ASCII lines and quoted-printable for anything else", () => {
    expect(textEncodingOf("Hello\nWorld")).toBe("7bit");
    expect(textEncodingOf("Café")).toBe("quoted-printable");
    expect(textEncodingOf("x".repeat(999))).toBe("quoted-printable");
    expect(textEncodingOf("bell\u0007")).toBe("quoted-printable");
  });

  it("writes quoted-printable as RFC 2045 says: escapes, trailing spaces, soft breaks at 76", async () => {
    expect(quotedPrintable("Café = 1 ")).toBe("Caf=C3=A9 =3D 1=20");
    const long = quotedPrintable(`${"é".repeat(40)}\nend`);
    for (const line of long.split("\r\n")) expect(line.length).toBeLessThanOrEqual(76);
    expect(long.endsWith("\r\nend")).toBe(true);
    // A MIME parser reads it back to the same text.
    const text = `Prix: 12 € — ${"long ".repeat(30)}\nfin  `;
    const mail = [
      "From: a@b.test",
      "Content-Type: text/plain; charset=UTF-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      quotedPrintable(text),
    ];
    const parsed = await PostalMime.parse(mail.join("\r\n"));
    expect(oneLineEnd(parsed.text)).toBe(text);
  });
});

describe("a seeded message's raw form is what a mail server writes", () => {
  it("serves ASCII text 7bit, other text quoted-printable, files base64, with their headers", async () => {
    const { gmail } = await gmailSandbox({
      profile: { emailAddress: "agent@northwind.test" },
      messages: [
        {
          id: "c1",
          labelIds: ["INBOX"],
          internalDate: "1767225600000",
          headers: [...from, { name: "Subject", value: "Plain" }],
          text: "Hi,\nthe invoice is attached.\n",
        },
        {
          id: "c2",
          labelIds: ["INBOX"],
          internalDate: "1767225600000",
          headers: [...from, { name: "Subject", value: "Accents" }],
          text: "Reçu: 12 €",
          html: "<p>Reçu</p>",
          attachments: [{ filename: "a.txt", mimeType: "text/plain", data: btoa("file") }],
        },
      ],
    });
    const plain = fromB64url((await gmail.users.messages.get({ userId: "me", id: "c1", format: "raw" })).data.raw ?? "");
    expect(plain).toContain('Content-Type: text/plain; charset="UTF-8"');
    expect(plain).not.toMatch(/Content-Transfer-Encoding/i);
    expect(plain).toContain("\r\n\r\nHi,\r\nthe invoice is attached.\r\n");
    expect(plain).toMatch(/^From: Dana <dana@customer\.test>\r\n/);
    expect(plain).toContain("MIME-Version: 1.0\r\n");
    expect(plain).toContain("Date: ");

    const mixed = fromB64url((await gmail.users.messages.get({ userId: "me", id: "c2", format: "raw" })).data.raw ?? "");
    expect(mixed).toContain("Content-Transfer-Encoding: quoted-printable\r\n\r\nRe=C3=A7u: 12 =E2=82=AC");
    expect(mixed).toContain("<p>Re=C3=A7u</p>");
    expect(mixed.match(/Content-Transfer-Encoding: base64/g)).toHaveLength(1);
    const parsed = await PostalMime.parse(mixed);
    expect(oneLineEnd(parsed.text)).toBe("Reçu: 12 €");
    expect(parsed.attachments.map((a) => a.filename)).toEqual(["a.txt"]);

    // The payload still serves the decoded text.
    const full = await gmail.users.messages.get({ userId: "me", id: "c2" });
    const textPart = full.data.payload?.parts?.[0]?.parts?.[0];
    expect(fromB64url(textPart?.body?.data ?? "")).toBe("Reçu: 12 €");
    expect(textPart?.headers).toContainEqual({ name: "Content-Transfer-Encoding", value: "quoted-printable" });
  });
});

describe("mail sent or received as RFC 822 keeps its bytes", () => {
  const LINES = [
    "From: agent@northwind.test",
    "To: lee@partner.test",
    "Subject: Quarterly",
    "Date: Thu, 1 Jan 2026 00:00:00 +0000",
    "Message-ID: <q1@northwind.test>",
    "X-Custom: kept as written",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=UTF-8",
    "Content-Transfer-Encoding: base64",
    "",
    btoa("Numbers attached."),
    "",
  ];

  it("serves a sent message's own bytes in format=raw", async () => {
    const { gmail } = await gmailSandbox();
    const sent = await gmail.users.messages.send({ userId: "me", requestBody: { raw: raw(LINES) } });
    const got = await gmail.users.messages.get({ userId: "me", id: sent.data.id ?? "", format: "raw" });
    expect(fromB64url(got.data.raw ?? "")).toBe(LINES.join("\r\n"));
  });

  it("serves an inserted and an imported message's own bytes in format=raw", async () => {
    const { gmail } = await gmailSandbox();
    for (const call of [
      () => gmail.users.messages.insert({ userId: "me", requestBody: { raw: raw(LINES), labelIds: ["INBOX"] } }),
      () => gmail.users.messages.import({ userId: "me", requestBody: { raw: raw(LINES) } }),
    ]) {
      const stored = await call();
      const got = await gmail.users.messages.get({ userId: "me", id: stored.data.id ?? "", format: "raw" });
      expect(fromB64url(got.data.raw ?? "")).toBe(LINES.join("\r\n"));
    }
  });
});
