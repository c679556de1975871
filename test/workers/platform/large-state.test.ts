// A world larger than one Durable Object answer can carry (32 MiB as an RPC value) stays readable:
// /_pome/state streams it from pages the Sandbox hands over, and finalize writes its evidence to R2
// page by page. The world is grown the way an agent could grow it, with calls GitHub accepts: one
// large file, then branches, each of which the exported world lists with that file's content.
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { STATE_PAGES_HEADER, type Sandbox } from "../../../durable-objects/Sandbox";
import { pageEnd, textPages } from "../../../durable-objects/text-pages";
import { sandboxStub } from "../../../workers/stubs";
import { streamedState } from "../../../workers/twin-proxy";
import { code, finalizeOk } from "../grading/run-helpers";
import { type CreatedSandbox, createSandbox, twinFetch } from "../helpers";

const RPC_LIMIT_BYTES = 32 * 1024 * 1024;
/** A file whose base64 upload still fits the twin's 1 MiB body limit. */
const FILE_CHARS = 720 * 1024;
/** Branches besides main: 48 copies of the file make about 35 MiB of one-byte text. */
const BRANCHES = 47;

const fileContent = () => {
  const line = "The quick brown fox jumps over the lazy dog; 0123456789.\n";
  return line.repeat(Math.ceil(FILE_CHARS / line.length)).slice(0, FILE_CHARS);
};

interface ExportedState {
  repositories: { name: string; branches: { name: string; files: { path: string; content: string }[] }[] }[];
}

describe("a world past the 32 MiB RPC limit is readable in full at /_pome/state", () => {
  let sandbox: CreatedSandbox;
  const content = fileContent();
  const github = (path: string, method: string, body: unknown) =>
    twinFetch(sandbox, path, {
      method,
      headers: { authorization: `Bearer ${sandbox.provider_credentials.github.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    sandbox = await createSandbox({ twins: ["github"] });
    const put = await github("/repos/acme/api/contents/large.txt", "PUT", { message: "A large file", content: btoa(content) });
    expect(put.status).toBe(201);
    const { commit } = await put.json<{ commit: { sha: string } }>();
    for (let n = 0; n < BRANCHES; n++) {
      const ref = await github("/repos/acme/api/git/refs", "POST", { ref: `refs/heads/copy-${n}`, sha: commit.sha });
      expect(ref.status).toBe(201);
    }
  }, 60_000);

  it("answers 200 with the whole state as one valid JSON document, every copy of the file complete", async () => {
    const res = await twinFetch(sandbox, "/_pome/state");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    // The Sandbox's paging header is between it and the router: a client never sees it.
    expect([...res.headers.keys()].filter((name) => name.startsWith("x-pome-state"))).toEqual([]);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(RPC_LIMIT_BYTES);
    const state = JSON.parse(text) as ExportedState;
    const repo = state.repositories.find((r) => r.name === "api");
    const copies = (repo?.branches ?? []).filter((b) => b.name === "main" || b.name.startsWith("copy-"));
    expect(copies).toHaveLength(BRANCHES + 1);
    for (const branch of copies) expect(branch.files.find((f) => f.path === "large.txt")?.content).toBe(content);
  });

  it("finalizes: the evidence is exported to R2 page by page and graded from there", async () => {
    const run = await finalizeOk(sandbox.session_id, [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })]);
    expect(run.criteria_results.map((r) => r.status)).toEqual(["passed"]);
  });
});

describe("a held state is released and never served from another moment", () => {
  it("an unknown or spent hold answers no page", async () => {
    const sandbox = await createSandbox({ twins: ["github"] });
    const stub = sandboxStub(env, sandbox.session_id);
    expect(await stub.statePage("no-such-hold", 1)).toBeNull();
    await runInDurableObject(stub, async (instance: Sandbox) => {
      expect(await instance.statePage(crypto.randomUUID(), 0)).toBeNull();
    });
  });
});

describe("the router streams a paged state as one body", () => {
  const first = (pages: number) => ({
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8", [STATE_PAGES_HEADER]: `hold-1 ${pages}` },
    body: '{"a":"',
  });
  const pagesOf = (pages: (string | null)[], released: string[] = []) => ({
    nextPage: async (hold: string, index: number) => (hold === "hold-1" ? (pages[index - 1] ?? null) : null),
    release: async (hold: string) => {
      released.push(hold);
    },
  });

  it("joins the pages in order and keeps the paging header to itself", async () => {
    const res = streamedState(first(3), `hold-1 3`, pagesOf(["中文😀", '"}']));
    expect(res.headers.get(STATE_PAGES_HEADER)).toBeNull();
    expect(await res.json()).toEqual({ a: "中文😀" });
  });

  it("ends the body in an error, never in a short document, when a page is gone", async () => {
    const res = streamedState(first(3), `hold-1 3`, pagesOf(["x", null]));
    await expect(res.text()).rejects.toThrow(/expired/);
  });

  it("lets the Sandbox release the hold when the reader goes away", async () => {
    const released: string[] = [];
    const res = streamedState(first(3), `hold-1 3`, pagesOf(["x", '"}'], released));
    const reader = res.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    expect(released).toEqual(["hold-1"]);
  });
});

describe("long text is paged without cutting a character in two", () => {
  it("never ends a page between the two halves of a surrogate pair", () => {
    const text = "a😀".repeat(1000);
    for (const size of [2, 3, 4, 7, 64, 1999]) {
      const pages = textPages(text, size);
      expect(pages.join("")).toBe(text);
      for (const page of pages) {
        expect(page.length).toBeLessThanOrEqual(size);
        expect(page).toBe(page.toWellFormed());
      }
    }
  });

  it("an empty text is one empty page; a short one is itself", () => {
    expect(textPages("", 8)).toEqual([""]);
    expect(textPages("abc", 8)).toEqual(["abc"]);
    expect(pageEnd("ab😀", 0, 3)).toBe(2);
  });
});
