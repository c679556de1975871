// The parts of the Run page below HTML: the tape page slicer and its index, and the world diff.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { tapeToJsonl } from "../../../durable-objects/tape";
import type { TapeRow } from "../../../durable-objects/twins/types";
import { evidenceKey } from "../../../durable-objects/evidence-keys";
import { buildTimelineIndex, hasStoredLayout, seqsInReason, tapeView, timelineIndexKey } from "../../../workers/dashboard/tape-view";
import { diffWorld } from "../../../workers/dashboard/world-diff";
import { callTitle, decodeQueryString, graphqlCall, graphqlOperation } from "../../../workers/dashboard/call-summary";
import { codeSpans, inlineMarkdown, plainText } from "../../../workers/routes/app/markdown";
import { api, createSandbox, postJson, twinFetch } from "../helpers";
import { timelinePage } from "../../../workers/routes/app/data";

const row = (seq: number, extra: Partial<TapeRow> = {}): TapeRow => ({
  seq,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
  twin: "github",
  transport: "rest",
  method: "GET",
  path: `/repos/acme/api/issues/${seq}`,
  query: "",
  request_headers: {},
  request_body: null,
  status: 200,
  response_body: { note: 'a body that says "mutated":true in a string' },
  mutated: false,
  fidelity: "supported",
  operation: "issues.get",
  ...extra,
});

describe("a page of the tape", () => {
  const tape = Array.from({ length: 250 }, (_, i) => row(i + 1, i % 50 === 9 ? { mutated: true, method: "POST" } : {}));
  const jsonl = tapeToJsonl(tape);

  it("parses only the requested page and clamps the page number", () => {
    const view = tapeView(jsonl, 2, 100);
    expect(view).toMatchObject({ total: 250, page: 2, pages: 3 });
    expect(view.rows.map((r) => r.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 101));
    expect(tapeView(jsonl, 99, 100).page).toBe(3);
    expect(tapeView(jsonl, Number.NaN, 100).page).toBe(1);
    expect(tapeView("", 1).total).toBe(0);
  });

  it("finds every mutating call with its page, not a body that merely mentions the flag", () => {
    const view = tapeView(jsonl, 1, 100);
    expect(view.mutating.map((m) => [m.seq, m.page])).toEqual([
      [10, 1],
      [60, 1],
      [110, 2],
      [160, 2],
      [210, 3],
    ]);
  });

  it("reads rows in another key order, or with a nested mutated key, by parsing them", () => {
    const reordered = JSON.stringify({
      mutated: true,
      seq: 7,
      twin: "slack",
      method: "POST",
      path: "/api/chat.postMessage",
      at: "",
      status: 200,
    });
    const nested = JSON.stringify(row(8, { response_body: { mutated: true } }));
    expect(hasStoredLayout(reordered)).toBe(false);
    expect(hasStoredLayout(nested)).toBe(true);
    expect(tapeView(`${reordered}\n${nested}\n`, 1).mutating).toEqual([
      { seq: 7, twin: "slack", method: "POST", path: "/api/chat.postMessage", page: 1 },
    ]);
  });

  it("finds the page of a seq, and null for a seq the tape does not have", () => {
    const view = tapeView(jsonl, 1, 100);
    expect([1, 100, 101, 250].map((s) => view.pageOf(s))).toEqual([1, 1, 2, 3]);
    expect(view.pageOf(251)).toBeNull();
  });

  it("reads the seqs a reason names", () => {
    expect(seqsInReason("called POST /x (seq 4), PUT /y (seq 12)")).toEqual([4, 12]);
  });
});

describe("the world diff", () => {
  it("matches records by identity, and reads plain lists as sets", () => {
    const seed = {
      repositories: [
        {
          name: "api",
          issues: [
            { number: 1, labels: ["triage"], state: "open" },
            { number: 2, labels: [], state: "open" },
          ],
        },
      ],
    };
    const final = {
      repositories: [
        {
          name: "api",
          issues: [
            { number: 2, labels: [], state: "closed" },
            { number: 1, labels: ["bug"], state: "open" },
            { number: 3, labels: [], state: "open" },
          ],
        },
      ],
    };
    const { changes, truncated } = diffWorld(seed, final);
    expect(truncated).toBe(false);
    const issue = (n: number) => `repositories[name=api].issues[number=${n}]`;
    expect(changes).toEqual([
      { path: `${issue(1)}.labels`, object: issue(1), field: "labels", kind: "removed", before: "triage" },
      { path: `${issue(1)}.labels`, object: issue(1), field: "labels", kind: "added", after: "bug" },
      { path: `${issue(2)}.state`, object: issue(2), field: "state", kind: "changed", before: "open", after: "closed" },
      {
        path: issue(3),
        object: "repositories[name=api]",
        field: "issues[number=3]",
        kind: "added",
        after: { number: 3, labels: [], state: "open" },
      },
    ]);
  });

  it("matches records by id per collection, so untouched ones are not added and a renamed one is changed", () => {
    const uuid = (n: number) => `0000000${n}-3c01-450d-8f6a-d23a02e6702f`;
    const channel = (id: string, name: string) => ({ id, name, members: ["U1"] });
    const seed = {
      channels: [channel("C1", "general"), channel("C2", "random")],
      users: [{ id: "C1", name: "general" }],
      issues: [{ id: uuid(1), identifier: "ENG-1", number: 1, title: "Crash", state: "Triage" }],
    };
    const final = {
      // Reordered, one renamed, one new; the users collection reuses an id of another collection.
      channels: [channel("C3", "release-4-2"), channel("C2", "random"), channel("C1", "announcements")],
      users: [{ id: "C1", name: "general" }],
      issues: [{ id: uuid(1), identifier: "ENG-1", number: 1, title: "Crash", state: "Todo" }],
    };
    const { changes } = diffWorld(seed, final);
    expect(changes.map((c) => [c.object, c.field, c.kind])).toEqual([
      ["channels[name=announcements]", "name", "changed"],
      ["", "channels[name=release-4-2]", "added"],
      // An issue by its identifier, never by its UUID.
      ["issues[identifier=ENG-1]", "state", "changed"],
    ]);
    expect(JSON.stringify(changes)).not.toContain(uuid(1));
  });

  it("says nothing for an unchanged world and stops at the limit", () => {
    expect(diffWorld({ a: [1, 2], b: { c: null } }, { a: [1, 2], b: { c: null } }).changes).toEqual([]);
    const many = diffWorld({ xs: [] }, { xs: Array.from({ length: 20 }, (_, i) => ({ id: i })) }, 5);
    expect(many.changes).toHaveLength(5);
    expect(many.truncated).toBe(true);
  });
});

describe("the timeline index kept beside a tape", () => {
  it("is written by finalize, so a run's first view reads one page", async () => {
    const sandbox = await createSandbox();
    for (const path of ["/user", "/repos/acme/api", "/repos/acme/api/issues"]) await twinFetch(sandbox, path);
    const finalized = await postJson(`/v1/sandboxes/${sandbox.session_id}/finalize`, {
      stop_reason: "done",
      exit_code: 0,
      duration_ms: 1,
      agent_model: "test",
      criteria: [{ id: "c1", kind: "code", text: "No unsupported endpoint was called" }],
    });
    expect(finalized.status).toBe(200);
    const { team } = await (await api("/v1/me")).json<{ team: { id: string } }>();
    const trace = evidenceKey(team.id, sandbox.session_id, "events.jsonl");
    const stored = await env.EVIDENCE.get(timelineIndexKey(trace));
    const tape = await env.EVIDENCE.get(trace);
    expect(stored && tape).toBeTruthy();
    expect(await stored?.json()).toEqual(buildTimelineIndex(new Uint8Array(await (tape as R2ObjectBody).arrayBuffer())));
  });

  it("is built on the first view and serves later views from one page's byte range", async () => {
    const key = `test-timeline/${crypto.randomUUID()}/events.jsonl`;
    // Multi-byte characters in the bodies: the ranges are bytes, not string indexes.
    const tape = Array.from({ length: 230 }, (_, i) => row(i + 1, { response_body: { title: `é ✓ ${i}` }, mutated: i === 150 }));
    await env.EVIDENCE.put(key, tapeToJsonl(tape));
    const pending: Promise<unknown>[] = [];
    const first = await timelinePage(env, (p) => pending.push(p), key, 2);
    await Promise.all(pending);
    expect(await env.EVIDENCE.head(timelineIndexKey(key))).not.toBeNull();
    const again = await timelinePage(env, () => {}, key, 2);
    expect(again?.rows).toEqual(first?.rows);
    expect(again?.rows.map((r) => r.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 101));
    expect(again?.rows[0].response_body).toEqual({ title: "é ✓ 100" });
    expect(again?.mutating).toEqual([
      { seq: 151, twin: "github", method: "GET", path: "/repos/acme/api/issues/151", operation: "issues.get", page: 2 },
    ]);
    expect((await timelinePage(env, () => {}, key, 3))?.rows).toHaveLength(30);
    expect(await timelinePage(env, () => {}, `${key}.absent`, 1)).toBeUndefined();
  });
});

describe("a GraphQL call is named by its operation, with its query decoded", () => {
  const gql = (body: unknown, extra: Partial<TapeRow> = {}) =>
    row(1, { transport: "graphql", method: "POST", path: "/graphql", request_body: body, operation: "issueUpdate", ...extra });

  it("reads the operation's type and name, and the field the tape recorded", () => {
    const query = 'mutation issueUpdate($id: String!) {\n  issueUpdate(id: $id, input: {title: "x"}) { success }\n}';
    expect(graphqlCall(gql({ query, variables: { id: "ENG-1" } }))).toEqual({
      type: "mutation",
      name: "issueUpdate",
      query,
      variables: { id: "ENG-1" },
    });
    expect(callTitle(gql({ query }))).toBe("mutation issueUpdate");
    // The operation's own name beside the root field it reached, when they differ.
    expect(callTitle(gql({ query: "query team_labels { team(id: 1) { labels { nodes { id } } } }" }, { operation: "team" }))).toBe(
      "query team_labels (team)",
    );
    // Fragments first, a comment naming another operation, an anonymous shorthand.
    expect(graphqlOperation("# query Fake\nfragment F on Issue { id }\nmutation Real { x }")).toEqual({ type: "mutation", name: "Real" });
    expect(graphqlOperation("{ viewer { id } }")).toEqual({ type: "query", name: null });
    expect(graphqlOperation("query A { a } mutation B { b }", "B")).toEqual({ type: "mutation", name: "B" });
  });

  it("reads a GET's ?query= and a body sent as text, and leaves REST calls as method and path", () => {
    const get = row(2, {
      transport: "graphql",
      method: "GET",
      path: "/graphql",
      query: `query=${encodeURIComponent("query viewer { viewer { id } }")}`,
    });
    expect(callTitle(get)).toBe("query viewer (issues.get)");
    expect(graphqlCall(gql(JSON.stringify({ query: "query q { a }" })))?.name).toBe("q");
    expect(graphqlCall(row(3))).toBeNull();
    expect(callTitle(row(4, { query: "q=is%3Aopen+label%3Abug" }))).toBe("GET /repos/acme/api/issues/4?q=is:open label:bug");
    expect(decodeQueryString("%E0%A4%A")).toBe("%E0%A4%A");
  });
});

describe("Markdown code spans", () => {
  it("splits text at backtick pairs and leaves fences and lone backticks alone", () => {
    expect(codeSpans("Issue #1 in `acme/api` has the `bug` label")).toEqual([
      { text: "Issue #1 in ", code: false },
      { text: "acme/api", code: true },
      { text: " has the ", code: false },
      { text: "bug", code: true },
      { text: " label", code: false },
    ]);
    expect(codeSpans("```json\n{}\n```")).toEqual([{ text: "```json\n{}\n```", code: false }]);
    expect(plainText("a `b` c ` d")).toBe("a b c ` d");
  });

  it("renders code as <code> and escapes everything else, inside the span too", async () => {
    const out = String(await inlineMarkdown("Run `<script>alert(1)</script>` & <b>bold</b>"));
    expect(out).toBe("Run <code>&lt;script&gt;alert(1)&lt;/script&gt;</code> &amp; &lt;b&gt;bold&lt;/b&gt;");
  });
});
