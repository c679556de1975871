// Grading reads the Sandbox's own events.jsonl with its bodies parsed on demand: the rows must be
// the very rows a full parse gives (same fields, same order, same serialization), a check that
// reads only method, path and status must never parse a body, and a line the scan cannot read
// must take the full parse.
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseTapeJsonl } from "../../../workers/grading/evidence";
import { splitLine } from "../../../workers/grading/tape-lines";

/** JSON values whose strings are full of what a scan can trip on: quotes, backslashes, braces, the body keys. */
const tricky = fc.oneof(
  fc.constantFrom(
    '"',
    "\\",
    '\\"',
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    '"request_body":',
    '"response_body":{',
    ',"mutated":',
    "mutated",
    "\n",
    "\u2028",
    "é",
  ),
  fc.string({ maxLength: 6 }),
);
const text = fc.array(tricky, { maxLength: 5 }).map((parts) => parts.join(""));
const body = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    text,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(text, tie("value"), { maxKeys: 3 }),
  ),
})).value;

const row = fc.record({
  seq: fc.nat(),
  at: fc.constant("2026-01-01T00:00:00.000Z"),
  twin: fc.constantFrom("github", "slack"),
  transport: fc.constant("rest"),
  method: fc.constantFrom("GET", "POST"),
  path: text,
  query: text,
  request_headers: fc.dictionary(fc.constantFrom("accept", "user-agent"), text),
  request_body: body,
  status: fc.integer({ min: 100, max: 599 }),
  response_body: body,
  mutated: fc.boolean(),
  fidelity: fc.constantFrom("supported", "unsupported"),
  operation: text,
});

const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`;

describe("the own tape, bodies on demand", () => {
  afterEach(() => vi.restoreAllMocks());

  it("gives the rows a full parse gives, field for field and byte for byte", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 6 }), (rows) => {
        const tape = jsonl(rows);
        const eager = parseTapeJsonl(tape, "events.jsonl");
        const lazy = parseTapeJsonl(tape, "events.jsonl", { lazyBodies: true });
        expect(JSON.stringify(lazy)).toBe(JSON.stringify(eager));
        expect(lazy.map((r) => ({ ...r }))).toEqual(eager);
        expect(lazy.map((r) => Object.keys(r))).toEqual(eager.map((r) => Object.keys(r)));
      }),
      { numRuns: 500 },
    );
  });

  it("reads a line laid out in another key order, a nested `mutated` key before the real one included", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 4 }), (rows) => {
        const reversed = rows.map((r) =>
          Object.fromEntries(Object.entries({ ...r, response_body: { mutated: r.response_body } }).reverse()),
        );
        const tape = jsonl(reversed);
        expect(JSON.stringify(parseTapeJsonl(tape, "events.jsonl", { lazyBodies: true }))).toBe(
          JSON.stringify(parseTapeJsonl(tape, "events.jsonl")),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("parses no body for a check that reads method, path and status, and each body once when read", () => {
    const big = { items: Array.from({ length: 200 }, (_, i) => ({ n: i, title: `issue ${i}` })) };
    const tape = jsonl(
      [1, 2, 3].map((seq) => ({
        seq,
        at: "2026-01-01T00:00:00.000Z",
        twin: "github",
        method: "GET",
        path: "/x",
        status: 200,
        request_body: null,
        response_body: big,
      })),
    );
    const rows = parseTapeJsonl(tape, "events.jsonl", { lazyBodies: true });
    const parse = vi.spyOn(JSON, "parse");
    expect(rows.filter((r) => r.method === "GET" && r.path === "/x" && r.status === 200)).toHaveLength(3);
    expect(parse).not.toHaveBeenCalled();
    expect(rows[0].response_body).toEqual(big);
    expect(rows[0].response_body).toEqual(big);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it("hands a line the scan cannot read to the full parse, which refuses it with its line", () => {
    expect(splitLine('{"seq":1,"request_body":{"a":1}')).toBeUndefined();
    expect(splitLine('["seq",1]')).toBeUndefined();
    expect(() => parseTapeJsonl('{"seq":1,"request_body":{"a":1}\n', "events.jsonl", { lazyBodies: true })).toThrow(/line 1/);
  });
});
