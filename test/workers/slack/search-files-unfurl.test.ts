// search.files and search.all (user token only), the one-call v1 files.upload (content or a
// multipart file, shared with a comment), public file links, and chat.unfurl reflected in the
// message's attachments.
import { describe, expect, it } from "vitest";
import { slackErrorOf, slackSandbox, webFor } from "./client";
import { ACME_SCOPES, acmeSeed } from "./fixtures";

const withLinks = () => {
  const seed = acmeSeed();
  return {
    ...seed,
    installation: {
      ...seed.installation,
      scope: `${ACME_SCOPES},links:write`,
      authed_user: { id: "U0ALICE", scope: "search:read,files:write" },
    },
  };
};

describe("search.files and search.all read with the user token only", () => {
  it("finds files by name, title and content, with in: and paging", async () => {
    const { sandbox, web } = await slackSandbox(withLinks());
    const user = webFor(sandbox, { token: sandbox.provider_credentials.slack.user_token });
    const files = await user.search.files({ query: "replica" });
    expect(files.files?.matches?.map((f) => f.id)).toEqual(["F0RUNBOOK"]);
    expect(files.files?.pagination).toMatchObject({ total_count: 1, page: 1, page_count: 1, first: 1, last: 1 });
    expect((await user.search.files({ query: "replica in:#random" })).files?.total).toBe(0);
    expect((await user.search.files({ query: "runbook in:#incidents" })).files?.total).toBe(1);
    expect(await slackErrorOf(web.search.files({ query: "replica" }))).toBe("not_allowed_token_type");
  });

  it("answers messages and files together, sorted by timestamp when asked", async () => {
    const { sandbox, web } = await slackSandbox(withLinks());
    const user = webFor(sandbox, { token: sandbox.provider_credentials.slack.user_token });
    const all = await user.search.all({ query: "runbook", sort: "timestamp", sort_dir: "desc" });
    expect(all.messages?.matches?.map((m) => m.text)).toEqual(["Runbook attached"]);
    expect(all.files?.matches?.map((f) => f.id)).toEqual(["F0RUNBOOK"]);
    const paged = await user.search.all({ query: "", count: 1, page: 2, sort: "timestamp" });
    expect(paged.messages?.paging).toMatchObject({ count: 1, page: 2 });
    expect(paged.messages?.matches).toHaveLength(1);
    expect(await slackErrorOf(web.search.all({ query: "runbook" }))).toBe("not_allowed_token_type");
  });
});

describe("files.upload (v1) stores and shares a file in one call", () => {
  it("uploads content shared to a channel with a comment, and a multipart file byte for byte", async () => {
    const { web } = await slackSandbox(withLinks());
    const up = await web.apiCall("files.upload", {
      content: "hello, world",
      filename: "notes.txt",
      title: "Notes",
      channels: "C0INCIDENT",
      initial_comment: "see <@U0ALICE>",
    });
    const file = (up as { file?: unknown }).file as {
      id: string;
      name: string;
      title: string;
      filetype: string;
      size: number;
      channels: string[];
    };
    expect(file).toMatchObject({ name: "notes.txt", title: "Notes", filetype: "text", size: 12, channels: ["C0INCIDENT"] });
    const history = await web.conversations.history({ channel: "C0INCIDENT", limit: 1 });
    expect(history.messages?.[0]).toMatchObject({ text: "see <@U0ALICE>", files: [{ id: file.id }] });

    const bytes = new Uint8Array([0, 255, 1, 254, 137, 80, 78, 71]);
    const binary = await web.apiCall("files.upload", { file: Buffer.from(bytes), filename: "pixel.png" });
    const info = await web.files.info({ file: ((binary as { file?: unknown }).file as { id: string }).id });
    expect(info.file).toMatchObject({ filetype: "png", size: 8 });
  });

  it("refuses an upload with no data and an unknown channel", async () => {
    const { web } = await slackSandbox(withLinks());
    expect(await slackErrorOf(web.apiCall("files.upload", { filename: "x.txt" }))).toBe("no_file_data");
    expect(await slackErrorOf(web.apiCall("files.upload", { filename: "x.txt", content: "" }))).toBe("no_file_data");
    expect(await slackErrorOf(web.apiCall("files.upload", { content: "x", channels: "C0NOWHERE" }))).toBe("invalid_channel");
  });

  it("shares and revokes a public link with the user token", async () => {
    const { sandbox, web } = await slackSandbox(withLinks());
    const user = webFor(sandbox, { token: sandbox.provider_credentials.slack.user_token });
    const shared = await user.files.sharedPublicURL({ file: "F0RUNBOOK" });
    expect(shared.file).toMatchObject({ public_url_shared: true });
    expect(shared.file?.permalink_public).toMatch(/^https:\/\/slack-files\.com\/T0ACME-F0RUNBOOK-/);
    const revoked = await user.files.revokePublicURL({ file: "F0RUNBOOK" });
    expect(revoked.file?.public_url_shared).toBe(false);
    // files.sharedPublicURL has a user scope only on docs.slack.dev.
    expect(await slackErrorOf(web.files.sharedPublicURL({ file: "F0RUNBOOK" }))).toBe("not_allowed_token_type");
  });
});

describe("chat.unfurl adds the app's previews to the message", () => {
  it("refuses a preview's invalid blocks as chat.postMessage refuses them, and keeps the message as it was", async () => {
    const { web } = await slackSandbox(withLinks());
    const url = "https://status.acme.test/inc/42";
    const posted = await web.chat.postMessage({ channel: "C0INCIDENT", text: `see <${url}|incident 42>` });
    const refused = web.chat.unfurl({
      channel: "C0INCIDENT",
      ts: String(posted.ts),
      unfurls: { [url]: { blocks: [{ type: "nope" }] } } as never,
    });
    expect(await slackErrorOf(refused)).toBe("invalid_blocks");
    const history = await web.conversations.history({ channel: "C0INCIDENT", limit: 1 });
    expect(history.messages?.[0]?.attachments ?? []).toEqual([]);
  });

  it("unfurls a URL the message holds, replacing an earlier preview of it", async () => {
    const { web } = await slackSandbox(withLinks());
    const posted = await web.chat.postMessage({ channel: "C0INCIDENT", text: "see <https://status.acme.test/inc/42|incident 42>" });
    const url = "https://status.acme.test/inc/42";
    await web.chat.unfurl({ channel: "C0INCIDENT", ts: String(posted.ts), unfurls: { [url]: { text: "Sev2, open" } } });
    await web.chat.unfurl({ channel: "C0INCIDENT", ts: String(posted.ts), unfurls: { [url]: { text: "Sev2, resolved" } } });
    const history = await web.conversations.history({ channel: "C0INCIDENT", limit: 1 });
    expect(history.messages?.[0]?.attachments).toEqual([
      { id: 1, text: "Sev2, resolved", app_unfurl_url: url, is_app_unfurl: true, app_id: "A0DEPLOY" },
    ]);
  });

  it("refuses a URL the message lacks, a message that is not there, and no unfurls", async () => {
    const { web } = await slackSandbox(withLinks());
    const posted = await web.chat.postMessage({ channel: "C0INCIDENT", text: "no links here" });
    const ts = String(posted.ts);
    expect(await slackErrorOf(web.chat.unfurl({ channel: "C0INCIDENT", ts, unfurls: { "https://x.test": { text: "x" } } }))).toBe(
      "cannot_unfurl_url",
    );
    expect(
      await slackErrorOf(web.chat.unfurl({ channel: "C0INCIDENT", ts: "1111111111.000001", unfurls: { "https://x.test": { text: "x" } } })),
    ).toBe("cannot_find_message");
    expect(await slackErrorOf(web.apiCall("chat.unfurl", { channel: "C0INCIDENT", ts }))).toBe("missing_unfurls");
    const plain = await slackSandbox(acmeSeed());
    expect(await slackErrorOf(plain.web.chat.unfurl({ channel: "C0INCIDENT", ts, unfurls: {} }))).toBe("missing_scope");
  });
});
