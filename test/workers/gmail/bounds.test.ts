// Hostile input to the Gmail twin through googleapis: search queries past the parser's bounds,
// filters whose query could never run, huge ids and numbers. Each answers Google's error body
// quickly, never a 5xx, and a refusal leaves the mailbox as it was.
import { describe, expect, it } from "vitest";
import { gmailTwin } from "../../../durable-objects/twins/gmail";
import { criteriaProblem, filterMatcher } from "../../../durable-objects/twins/gmail/store/filters";
import { compileQuery, QUERY_LIMITS, stripTags, tokenize } from "../../../durable-objects/twins/gmail/store/search";
import { inTwinWorld } from "../kit/world";
import { gError, gmailSandbox, gmailState, raw } from "./client";

/** Runs a call that must be refused, timing it: Google's status and body, and the wall time. */
async function refused(call: () => Promise<unknown>) {
  const started = Date.now();
  const e = await gError(call());
  return { ...e, ms: Date.now() - started };
}

const DEEP = "(".repeat(5_000);

describe("a search query the parser cannot hold is refused with Gmail's 400, quickly", () => {
  it("refuses deep, long, many-termed and unreadable queries on every list that searches", async () => {
    const { sandbox, gmail } = await gmailSandbox();
    const before = await gmailState(sandbox);
    const queries = [
      DEEP,
      "from:(".repeat(3_000),
      `-(${"-(".repeat(2_000)}x`,
      "word ".repeat(QUERY_LIMITS.length),
      Array.from({ length: QUERY_LIMITS.terms + 1 }, (_, i) => `w${i}`).join(" "),
    ];
    for (const q of queries) {
      for (const call of [
        () => gmail.users.messages.list({ userId: "me", q }),
        () => gmail.users.threads.list({ userId: "me", q }),
        () => gmail.users.drafts.list({ userId: "me", q }),
      ]) {
        const e = await refused(call);
        expect(e).toMatchObject({
          status: 400,
          error: { code: 400, message: "Invalid query", status: "INVALID_ARGUMENT", errors: [{ reason: "invalidArgument" }] },
        });
        expect(e.ms).toBeLessThan(1000);
      }
    }
    expect(await gmailState(sandbox)).toEqual(before);
  });

  it("accepts a date operator given a value it does not take, as Gmail does, reading it as words that match nothing", async () => {
    const { gmail } = await gmailSandbox();
    for (const q of ["newer_than:soon", "older_than:1w", "after:yesterday", "from:(newer_than:x)"]) {
      const res = await gmail.users.messages.list({ userId: "me", q });
      expect(res.status).toBe(200);
      expect(res.data.messages ?? []).toEqual([]);
    }
    const created = await gmail.users.settings.filters.create({
      userId: "me",
      requestBody: { criteria: { query: "newer_than:soon" }, action: { addLabelIds: ["STARRED"] } },
    });
    expect(created.status).toBe(200);
  });

  it("reads unbalanced parentheses, stray operators and unclosed quotes leniently, as Gmail's search box does", async () => {
    const { gmail } = await gmailSandbox();
    for (const q of ["a) OR (b", "((from:x", ")", "-", "OR", '"unclosed phrase', 'from:"open', "from:(x", "-(", "😀 ✓"]) {
      const started = Date.now();
      const res = await gmail.users.messages.list({ userId: "me", q });
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });

  it("still finds what a well-formed query names at the bounds' edge", async () => {
    const { gmail } = await gmailSandbox();
    const found = await gmail.users.messages.list({ userId: "me", q: `${"(".repeat(QUERY_LIMITS.depth)}in:anywhere` });
    const all = await gmail.users.messages.list({ userId: "me", q: "in:anywhere" });
    expect(found.data.messages?.length ?? 0).toBeGreaterThan(0);
    expect(found.data.messages).toEqual(all.data.messages);
  });
});

describe("the heaviest query the bounds allow answers within the bound", () => {
  // A search walks the mailbox (the twin keeps no word index), so its cost grows with the mailbox;
  // the bounds keep a query's own share of it small: terms are cut into words once, and a message
  // missing any of a term's words is passed over without a scan.
  it("runs a query of the most terms over 1,000 messages, matching none, in under a second", async () => {
    const terms = Array.from({ length: QUERY_LIMITS.terms }, (_, i) => `zq${i}x`);
    const queries = [terms.join(" OR "), `${"(".repeat(QUERY_LIMITS.depth)}${terms.slice(0, 100).join(" OR ")}`, `"${terms.join(" ")}"`];
    await inTwinWorld(gmailTwin, gmailTwin.generateSeed?.(1_000), (w) => {
      for (const q of queries) {
        const started = Date.now();
        const res = w.call("GET", "/gmail/v1/users/me/messages", { query: `q=${encodeURIComponent(q)}&maxResults=500` });
        expect(res.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(1000);
      }
    });
  });
});

describe("the query reader: one pass, bounded, never throwing", () => {
  it("cuts tokens as Gmail's operators read them", () => {
    expect(tokenize('from:"Dana Lee" -subject:(a OR b) "x y" (c) -d')).toEqual([
      'from:"Dana Lee"',
      "-subject:(a OR b)",
      '"x y"',
      "(",
      "c",
      ")",
      "-d",
    ]);
    expect(tokenize('"open from:(x')).toEqual(['"open', "from:", "(", "x"]);
  });

  it("reads a quarter of a megabyte of quotes and parentheses in linear time", () => {
    const started = Date.now();
    for (const q of ['"'.repeat(250_000), "from:(".repeat(40_000), `${"a:".repeat(100_000)}"`, " ".repeat(250_000)]) tokenize(q);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("says why a query cannot be read instead of throwing", () => {
    expect(compileQuery(DEEP, 0)).toMatchObject({ ok: false, reason: `nested deeper than ${QUERY_LIMITS.depth}` });
    expect(compileQuery("newer_than:soon", 0)).toMatchObject({ ok: true });
    expect(compileQuery("x".repeat(QUERY_LIMITS.length + 1), 0)).toMatchObject({ ok: false });
    expect(compileQuery("newer_than:2d OR after:2026/07/01 OR before:1767225600", 0)).toMatchObject({ ok: true });
  });

  it("strips markup from HTML in one pass, keeping a lone `<` as text", () => {
    expect(stripTags("<p>Hi <b>Dana</b></p>")).toBe(" Hi  Dana  ");
    expect(stripTags("a < b")).toBe("a < b");
    const started = Date.now();
    stripTags("<".repeat(500_000));
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("a filter's query is read when the filter is stored, as Gmail does", () => {
  it("refuses a filter whose query or negated query cannot be read, with Gmail's 400, and stores nothing", async () => {
    const { sandbox, gmail } = await gmailSandbox();
    const before = await gmailState(sandbox);
    for (const criteria of [
      { negatedQuery: DEEP },
      { from: "a@b.test", query: `${"(".repeat(200)}x` },
      { subject: "x".repeat(QUERY_LIMITS.length + 1) },
    ]) {
      const e = await refused(() =>
        gmail.users.settings.filters.create({ userId: "me", requestBody: { criteria, action: { addLabelIds: ["STARRED"] } } }),
      );
      expect(e).toMatchObject({ status: 400, error: { code: 400, message: "Invalid query", errors: [{ reason: "invalidArgument" }] } });
      expect(e.ms).toBeLessThan(1000);
    }
    expect(await gmailState(sandbox)).toEqual(before);
    expect((await gmail.users.settings.filters.list({ userId: "me" })).data.filter ?? []).toEqual([]);
  });

  it("refuses a criteria field of the wrong type with Google's 400", async () => {
    const { gmail } = await gmailSandbox();
    const e = await refused(() =>
      gmail.users.settings.filters.create({
        userId: "me",
        requestBody: { criteria: { query: 5 as unknown as string }, action: { addLabelIds: ["STARRED"] } },
      }),
    );
    expect(e.status).toBe(400);
  });

  it("stores a readable filter, and a correspondent's reply is filtered by it", async () => {
    const { gmail } = await gmailSandbox({
      profile: { emailAddress: "agent@northwind.test" },
      correspondents: [{ address: "bot@echo.test", reply: { afterCalls: 0, text: "echo", labelIds: ["INBOX"] } }],
    });
    const created = await gmail.users.settings.filters.create({
      userId: "me",
      requestBody: {
        criteria: { query: "newer_than:2d (echo OR nothing)", negatedQuery: "subject:spam" },
        action: { addLabelIds: ["STARRED"] },
      },
    });
    expect(created.status).toBe(200);
    await gmail.users.messages.send({ userId: "me", requestBody: { raw: raw(["To: bot@echo.test", "Subject: ping", "", "ping"]) } });
    const starred = await gmail.users.messages.list({ userId: "me", labelIds: ["STARRED"] });
    expect(starred.data.messages).toHaveLength(1);
  });

  it("refuses a seed whose filter query cannot be read, at the field's path", () => {
    const r = gmailTwin.parseSeed({
      profile: { emailAddress: "agent@northwind.test" },
      filters: [
        { criteria: { from: "a@b.test" }, action: { addLabelIds: ["STARRED"] } },
        { criteria: { query: "newer_than:soon" }, action: { addLabelIds: ["STARRED"] } },
        { criteria: { negatedQuery: DEEP }, action: { addLabelIds: ["STARRED"] } },
      ],
    });
    expect(r.ok ? [] : r.issues.map((i) => i.path)).toEqual(["filters[2].criteria.negatedQuery"]);
  });

  it("never throws when a stored filter is run: one that cannot be read does not match", () => {
    expect(criteriaProblem({ query: DEEP })).toMatchObject({ field: "query" });
    expect(filterMatcher({ query: DEEP }, Date.now())).toBeUndefined();
    expect(filterMatcher({ negatedQuery: DEEP }, Date.now())).toBeUndefined();
    expect(filterMatcher({}, Date.now())).toBeUndefined();
    expect(filterMatcher({ from: "a@b.test" }, Date.now())).toBeDefined();
  });
});

describe("huge ids and numbers answer as Gmail does", () => {
  it("answers an id of 60 or 10,000 characters 400 `Invalid id value` or 404, quickly, on every read and write", async () => {
    const { sandbox, gmail } = await gmailSandbox();
    const before = await gmailState(sandbox);
    for (const id of ["a".repeat(60), "f".repeat(10_000), "%".repeat(60)]) {
      const calls: (() => Promise<unknown>)[] = [
        () => gmail.users.messages.get({ userId: "me", id }),
        () => gmail.users.messages.modify({ userId: "me", id, requestBody: { addLabelIds: ["STARRED"] } }),
        () => gmail.users.messages.trash({ userId: "me", id }),
        () => gmail.users.messages.delete({ userId: "me", id }),
        () => gmail.users.messages.attachments.get({ userId: "me", messageId: id, id }),
        () => gmail.users.threads.get({ userId: "me", id }),
        () => gmail.users.threads.modify({ userId: "me", id, requestBody: { addLabelIds: ["STARRED"] } }),
        () => gmail.users.labels.get({ userId: "me", id }),
        () => gmail.users.labels.delete({ userId: "me", id }),
        () => gmail.users.drafts.get({ userId: "me", id }),
        () => gmail.users.drafts.delete({ userId: "me", id }),
        () => gmail.users.settings.filters.get({ userId: "me", id }),
        () => gmail.users.settings.filters.delete({ userId: "me", id }),
        () => gmail.users.messages.batchModify({ userId: "me", requestBody: { ids: [id], addLabelIds: ["STARRED"] } }),
      ];
      for (const call of calls) {
        const e = await refused(call);
        expect([400, 404]).toContain(e.status);
        expect(["Invalid id value", "Requested entity was not found."]).toContain(e.error.message);
        expect(e.ms).toBeLessThan(1000);
      }
    }
    expect(await gmailState(sandbox)).toEqual(before);
  });

  it("refuses a count past uint32 and a history id past uint64 the way Google's request parser does", async () => {
    const { gmail } = await gmailSandbox();
    for (const call of [
      // `maxResults=99999999999999999999` as a JS number is 1e20; googleapis writes it in full.
      () => gmail.users.messages.list({ userId: "me", maxResults: 1e20 }),
      () => gmail.users.threads.list({ userId: "me", maxResults: 4294967296 }),
      () => gmail.users.drafts.list({ userId: "me", maxResults: -1 }),
    ]) {
      const e = await refused(call);
      expect(e.status).toBe(400);
      expect(e.error.message).toMatch(/^Invalid value at 'max_results' \(TYPE_UINT32\)/);
    }
    const history = await refused(() => gmail.users.history.list({ userId: "me", startHistoryId: "99999999999999999999999" }));
    expect(history.status).toBe(400);
    expect(history.error.message).toMatch(/^Invalid value at 'start_history_id' \(TYPE_UINT64\)/);
    // The largest values each field holds are read, not refused.
    expect((await gmail.users.messages.list({ userId: "me", maxResults: 4294967295 })).status).toBe(200);
    expect((await gmail.users.history.list({ userId: "me", startHistoryId: "18446744073709551615" })).status).toBe(200);
  });
});
