import { describe, expect, it } from "vitest";
import { bodyDigest, noneMatchHolds, notModifiedSince } from "../../../durable-objects/twins/github/conditional";
import { twinFetch } from "../helpers";
import { failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

describe("every successful GET carries an ETag, single resources a Last-Modified", () => {
  it("sends a weak ETag and the issue's updated_at as Last-Modified", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const issue = await octokit.issues.get({ ...repo, issue_number: 1 });
    expect(issue.headers.etag).toMatch(/^W\/"[0-9a-f]{64}"$/);
    expect(issue.headers["last-modified"]).toBe(new Date(issue.data.updated_at).toUTCString());
    expect(issue.headers["cache-control"]).toBe("private, max-age=60, s-maxage=60");
  });

  it("sends an ETag but no Last-Modified on a list, and a new ETag once the list changes", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const before = await octokit.issues.listForRepo({ ...repo });
    expect(before.headers.etag).toMatch(/^W\/"[0-9a-f]{64}"$/);
    expect(before.headers["last-modified"]).toBeUndefined();
    const again = await octokit.issues.listForRepo({ ...repo });
    expect(again.headers.etag).toBe(before.headers.etag);
    await octokit.issues.create({ ...repo, title: "New" });
    const after = await octokit.issues.listForRepo({ ...repo });
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});

describe("a GET whose validator still holds is answered 304 with an empty body", () => {
  it("answers If-None-Match with the current ETag 304, and a stale one 200", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const first = await octokit.issues.get({ ...repo, issue_number: 2 });
    const etag = first.headers.etag ?? "";
    const notModified = await failure(octokit.issues.get({ ...repo, issue_number: 2, headers: { "if-none-match": etag } }));
    expect(notModified.status).toBe(304);
    const raw = await twinFetch(sandbox, "/repos/acme/api/issues/2", { headers: { "if-none-match": etag } });
    expect(raw.status).toBe(304);
    expect(await raw.text()).toBe("");
    expect(raw.headers.get("etag")).toBe(etag);
    await octokit.issues.update({ ...repo, issue_number: 2, title: "Document pagination, please" });
    const changed = await octokit.issues.get({ ...repo, issue_number: 2, headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.data.title).toBe("Document pagination, please");
  });

  it("answers If-Modified-Since 304 when nothing changed since, and 200 for an earlier date", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const repoAnswer = await octokit.repos.get({ ...repo });
    const lastModified = repoAnswer.headers["last-modified"] ?? "";
    expect(lastModified).not.toBe("");
    const since = await failure(octokit.repos.get({ ...repo, headers: { "if-modified-since": lastModified } }));
    expect(since.status).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await octokit.repos.get({ ...repo, headers: { "if-modified-since": earlier } })).status).toBe(200);
  });

  it("never answers a write 304, and refusals carry no ETag", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const created = await octokit.issues.createComment({ ...repo, issue_number: 1, body: "hi", headers: { "if-none-match": "*" } });
    expect(created.status).toBe(201);
    expect(created.headers.etag).toMatch(/^W\//);
    const missing = await twinFetch(sandbox, "/repos/acme/api/issues/999", { headers: { "if-none-match": "*" } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("etag")).toBeNull();
  });
});

describe("rate-limit headers agree with GET /rate_limit", () => {
  it("reports the same limit, use, remainder and reset in the headers and the body", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.issues.get({ ...repo, issue_number: 1 });
    const limits = await octokit.rateLimit.get();
    const core = limits.data.resources.core;
    expect(limits.headers["x-ratelimit-limit"]).toBe(String(core.limit));
    expect(limits.headers["x-ratelimit-used"]).toBe(String(core.used));
    expect(limits.headers["x-ratelimit-remaining"]).toBe(String(core.remaining));
    expect(limits.headers["x-ratelimit-reset"]).toBe(String(core.reset));
    expect(limits.data.rate).toEqual(core);
  });
});

describe("the validators themselves", () => {
  it("compares ETags weakly, in lists, and takes *", () => {
    expect(noneMatchHolds('W/"abc"', 'W/"abc"')).toBe(true);
    expect(noneMatchHolds('"abc"', 'W/"abc"')).toBe(true);
    expect(noneMatchHolds('W/"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(noneMatchHolds("*", 'W/"abc"')).toBe(true);
    expect(noneMatchHolds('W/"abd"', 'W/"abc"')).toBe(false);
  });

  it("reads If-Modified-Since at second resolution and ignores a date it cannot read", () => {
    const at = "Tue, 10 Oct 2017 16:00:00 GMT";
    expect(notModifiedSince(at, at)).toBe(true);
    expect(notModifiedSince("Tue, 10 Oct 2017 15:59:59 GMT", at)).toBe(false);
    expect(notModifiedSince("yesterday-ish", at)).toBe(false);
  });

  it("digests bodies to 64 hex characters that change with any character", () => {
    expect(bodyDigest('{"a":1}')).toMatch(/^[0-9a-f]{64}$/);
    expect(bodyDigest('{"a":1}')).not.toBe(bodyDigest('{"a":2}'));
    expect(bodyDigest("")).not.toBe(bodyDigest(" "));
    // SHA-256 of the UTF-8 bytes (FIPS 180-2's example "abc"), so a non-ASCII body digests its bytes.
    expect(bodyDigest("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(bodyDigest("é")).toBe("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
  });
});
