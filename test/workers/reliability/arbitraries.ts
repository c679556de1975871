// Adversarial inputs for the property-based tests: bodies, queries, headers and path values an
// agent might send by mistake or on purpose. Every generator is plain fast-check, so a failure
// prints the seed and the shrunk input that broke a promise.
import fc from "fast-check";

/** Text nested `depth` arrays deep around a value. */
const nested = (depth: number, inner = "1") => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`;

const anyJson = fc.jsonValue({ maxDepth: 4 });
const weird = fc.oneof(
  fc.constant(null),
  fc.constant(""),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e308),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("\u0000", "\ud800", "../../etc/passwd", "%00", "<script>", "'; DROP TABLE gh_issues; --", "__proto__", "constructor"),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }),
  anyJson,
);

/** Field names the twins read, so a wrong type reaches a reader rather than being ignored. */
const FIELDS = [
  "title",
  "body",
  "labels",
  "assignees",
  "assignee",
  "name",
  "color",
  "state",
  "state_reason",
  "milestone",
  "head",
  "base",
  "message",
  "content",
  "sha",
  "branch",
  "event",
  "comments",
  "description",
  "lock_reason",
  "merge_method",
  "commit_title",
  "ref",
  "tree",
  "parents",
  "due_on",
  "reviewers",
  "draft",
];

export const badBody: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), weird, { maxKeys: 6 }).map((o) => JSON.stringify(o)) },
  { weight: 2, arbitrary: anyJson.map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 3000 }).map((d) => `{"title":"t","body":"b","x":${nested(d)}}`) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 200_000 })
      .map((n) => JSON.stringify({ title: "x".repeat(n), body: "y".repeat(n), name: "z".repeat(Math.min(n, 5000)) })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"__proto__":{"admin":true},"title":"p"}',
      '{"title":"a","title":5}',
      '{"constructor":{"prototype":{"x":1}}}',
      "null",
      "[]",
      '""',
      "{",
      "\u0000",
    ),
  },
);

export const badQuery: fc.Arbitrary<string> = fc
  .dictionary(
    fc.oneof(
      fc.constantFrom("per_page", "page", "state", "sort", "direction", "since", "labels", "q", "ref", "after_seq", "limit", "all_twins"),
      fc.string({ maxLength: 10 }),
    ),
    fc.oneof(fc.constantFrom("-1", "0", "1e309", "NaN", "101", "999999999999", "", "all", "true"), fc.string({ maxLength: 30 })),
    { maxKeys: 4 },
  )
  .map((q) => new URLSearchParams(q).toString());

/** Headers clients send, with values they should not: huge, empty, odd versions, odd keys. */
const headerValue = fc.oneof(
  fc.constantFrom("", "2099-01-01", "0", "application/vnd.github+json", "*/*", "text/html", "__proto__"),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
  fc.integer({ min: 1, max: 8000 }).map((n) => "v".repeat(n)),
);
export const badHeaders: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom(
    "accept",
    "user-agent",
    "x-github-api-version",
    "stripe-version",
    "idempotency-key",
    "if-none-match",
    "x-pome-anything",
    "linear-client",
  ),
  headerValue,
  { maxKeys: 3 },
);

export const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "",
);

/** A value for one path parameter: usually one the default world has, sometimes hostile. */
export function pathValue(param: string, good: Record<string, string>): fc.Arbitrary<string> {
  const hostile = fc.oneof(
    // Not "." or "..": URLs normalize those away, onto another route, which is not bad input.
    fc.constantFrom("0", "-1", "99999999999999999999", "a%2Fb", "%00", "%F0%9F%92%A9", "__proto__", "%25"),
    fc
      .string({ minLength: 1, maxLength: 20 })
      .filter((s) => s !== "." && s !== "..")
      .map(encodeURIComponent),
  );
  const known = good[param];
  return known === undefined
    ? hostile
    : fc.oneof({ weight: 3, arbitrary: fc.constant(encodeURIComponent(known)) }, { weight: 1, arbitrary: hostile });
}
