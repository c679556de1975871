// Workflow artifacts read and downloaded through @octokit/rest: one artifact, and its zip behind
// GitHub's 302 (any archive format but zip is 404).
import { describe, expect, it } from "vitest";
import { crc32 } from "../../../durable-objects/twins/github/zip";
import { twinFetch } from "../helpers";
import { ciWorld } from "./ci-world";
import { failure, sandboxWith, stateOf } from "./fixtures";

const repo = { owner: "acme", repo: "api" };
const FILES = [
  { path: "coverage/summary.txt", content: "Lines: 81.5%\n" },
  { path: "coverage/lcov-report/índex.html", content: "<html>81.5%</html>\n" },
];

/** ciWorld with files in run 600's coverage artifact. */
function artifactWorld() {
  const world = ciWorld();
  const api = world.repositories[0] as unknown as { workflow_runs: { id: number; artifacts?: Record<string, unknown>[] }[] };
  const run = api.workflow_runs.find((r) => r.id === 600);
  if (run?.artifacts?.[0]) run.artifacts[0].files = FILES;
  return world;
}

/** The stored entries of a ZIP archive, read from its local headers (APPNOTE § 4.3.7). */
function entriesOf(zip: Uint8Array) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const out: { path: string; content: string; crcOk: boolean }[] = [];
  for (let at = 0; view.getUint32(at, true) === 0x04034b50; ) {
    const crc = view.getUint32(at + 14, true);
    const size = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const extra = view.getUint16(at + 28, true);
    const name = zip.subarray(at + 30, at + 30 + nameLength);
    const data = zip.subarray(at + 30 + nameLength + extra, at + 30 + nameLength + extra + size);
    out.push({ path: new TextDecoder().decode(name), content: new TextDecoder().decode(data), crcOk: crc32(data) === crc });
    at += 30 + nameLength + extra + size;
  }
  return out;
}

describe("an artifact is read by id", () => {
  it("answers the artifact its list shows, and 404 for one that does not exist", async () => {
    const { octokit } = await sandboxWith(artifactWorld());
    const { data } = await octokit.actions.getArtifact({ ...repo, artifact_id: 610 });
    expect(data).toMatchObject({ id: 610, name: "coverage", size_in_bytes: 2048, workflow_run: { id: 600, head_branch: "feature" } });
    expect(data.archive_download_url).toMatch(/\/repos\/acme\/api\/actions\/artifacts\/610\/zip$/);
    expect((await failure(octokit.actions.getArtifact({ ...repo, artifact_id: 9999 }))).status).toBe(404);
  });
});

describe("an artifact downloads as a zip behind a redirect", () => {
  it("redirects to the archive, which holds the artifact's files", async () => {
    const { octokit, sandbox } = await sandboxWith(artifactWorld());
    const raw = await twinFetch(sandbox, "/repos/acme/api/actions/artifacts/610/zip", { redirect: "manual" });
    expect(raw.status).toBe(302);
    expect(raw.headers.get("location")).toMatch(/\/repos\/acme\/api\/actions\/artifacts\/610\/zip\/content$/);

    const download = await octokit.actions.downloadArtifact({ ...repo, artifact_id: 610, archive_format: "zip" });
    expect(download.status).toBe(200);
    expect(download.headers["content-type"]).toBe("application/zip");
    const zip = new Uint8Array(download.data as ArrayBuffer);
    expect(entriesOf(zip)).toEqual(FILES.map((f) => ({ ...f, crcOk: true })));
    // The end of central directory record counts both entries.
    const end = new DataView(zip.buffer, zip.byteOffset + zip.byteLength - 22, 22);
    expect(end.getUint32(0, true)).toBe(0x06054b50);
    expect(end.getUint16(10, true)).toBe(2);
  });

  it("answers 404 for an archive format other than zip, and for an unknown artifact", async () => {
    const { octokit } = await sandboxWith(artifactWorld());
    expect((await failure(octokit.actions.downloadArtifact({ ...repo, artifact_id: 610, archive_format: "tar" }))).status).toBe(404);
    expect((await failure(octokit.actions.downloadArtifact({ ...repo, artifact_id: 9999, archive_format: "zip" }))).status).toBe(404);
  });

  it("keeps the files in the exported seed", async () => {
    const { sandbox } = await sandboxWith(artifactWorld());
    const state = await stateOf<{ repositories: { workflow_runs: { id: number; artifacts: { files: unknown }[] }[] }[] }>(sandbox);
    expect(state.repositories[0]?.workflow_runs.find((r) => r.id === 600)?.artifacts[0]?.files).toEqual(FILES);
  });

  it("computes CRC-32 as the ZIP format defines it", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
  });
});
