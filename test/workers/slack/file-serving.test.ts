// Issue 36, point 5: a file an agent uploads never runs on the platform's origin. Uploaded
// through @slack/web-api's filesUploadV2 and fetched at its url_private as an agent would.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { attachmentDisposition } from "../../../durable-objects/twins/kit/download-headers";
import { slackSandbox } from "./client";
import { acmeSeed } from "./fixtures";

const PAGE = "<!doctype html><script>fetch('/app/runs').then(r=>r.text()).then(t=>parent.postMessage(t,'*'))</script>";

interface UploadedFile {
  id: string;
  url_private: string;
  url_private_download: string;
}

async function uploadPage(filename = "report.html") {
  const { sandbox, web } = await slackSandbox(acmeSeed());
  const res = await web.filesUploadV2({ channel_id: "C0INCIDENT", content: PAGE, filename });
  const file = (res as unknown as { files: { files: UploadedFile[] }[] }).files[0]?.files[0];
  if (!file) throw new Error("filesUploadV2 returned no file");
  return { sandbox, file };
}

describe("an uploaded Slack file is served as an attachment that cannot run", () => {
  it("serves report.html at url_private and url_private_download with attachment, nosniff and a sandbox CSP", async () => {
    const { sandbox, file } = await uploadPage();
    const authorization = `Bearer ${sandbox.provider_credentials.slack.token}`;
    for (const url of [file.url_private, file.url_private_download]) {
      const res = await SELF.fetch(url, { headers: { authorization } });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(PAGE);
      expect(res.headers.get("content-disposition")).toBe('attachment; filename="report.html"');
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toMatch(/^sandbox(;|$)/);
      expect(res.headers.get("content-security-policy")).not.toContain("allow-scripts");
    }
  });

  it("quotes a hostile filename safely and gives its exact name as filename*", async () => {
    const { sandbox, file } = await uploadPage('a"b\\c;\r\nSet-Cookie: x=1 résumé.html');
    const res = await SELF.fetch(file.url_private, { headers: { authorization: `Bearer ${sandbox.provider_credentials.slack.token}` } });
    expect(res.status).toBe(200);
    const disposition = res.headers.get("content-disposition") ?? "";
    expect(disposition).toMatch(/^attachment; filename="[^"\\]*(?:\\.[^"\\]*)*"; filename\*=UTF-8''/);
    expect(disposition).not.toMatch(/[\r\n]/);
    expect(res.headers.get("set-cookie")).toBeNull();
  });
});

describe("url_private takes its token only where Slack does: the Authorization header", () => {
  it("refuses the token in the query string and serves nothing", async () => {
    const { sandbox, file } = await uploadPage();
    const res = await SELF.fetch(`${file.url_private}?token=${encodeURIComponent(sandbox.provider_credentials.slack.token)}`);
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain("<script>");
  });
});

describe("attachmentDisposition (RFC 6266)", () => {
  it("keeps a plain ASCII name as one quoted filename", () => {
    expect(attachmentDisposition("notes.txt")).toBe('attachment; filename="notes.txt"');
  });
  it("escapes quotes and backslashes and drops control characters and path separators", () => {
    expect(attachmentDisposition('a"b\\c')).toBe('attachment; filename="a\\"b_c"');
    expect(attachmentDisposition("../../etc/passwd\n")).toBe('attachment; filename=".._.._etc_passwd_"');
  });
  it("gives a non-ASCII name as filename* in UTF-8 with an ASCII fallback", () => {
    expect(attachmentDisposition("résumé (1).pdf")).toBe(
      `attachment; filename="r_sum_ (1).pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.pdf`,
    );
  });
});
