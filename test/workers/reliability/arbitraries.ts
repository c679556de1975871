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

// ---- Hostile input: what would hurt a regular expression, a LIKE pattern, a recursive parser, a
// number reader or a column, wherever a twin reads text (issue 36). Each value here is one a call
// must answer within the bound, in the vendor's shape, and without changing the world on refusal.

/** Text `depth` levels deep in one bracket kind, closed or (half the time) left open. */
const nesting = fc
  .tuple(fc.constantFrom("()", "[]", "{}"), fc.integer({ min: 1, max: 5000 }), fc.boolean())
  .map(([pair, depth, closed]) => `${pair[0].repeat(depth)}${closed ? `a${pair[1].repeat(depth)}` : ""}`);

/** Named values from issue 36 and its kin: each broke or stalled a twin, or would have. */
export const HOSTILE_TEXT: readonly string[] = [
  // Regular-expression metacharacters and catastrophic patterns.
  "(*",
  "(a+)+$",
  ".*.*.*=.*",
  "[",
  "\\",
  "*",
  `${"*".repeat(29)}!`,
  "customer.*.*.*.*.*.*.*.*.*.*.*.*x",
  "^$|)(?<=",
  // SQL LIKE wildcards, and quotes.
  "%",
  "_",
  "%_%",
  "%".repeat(60),
  "a_c%",
  "' OR 1=1 --",
  '"',
  // Deep nesting.
  "(".repeat(5000),
  `${"(".repeat(200)}a${")".repeat(200)}`,
  "[".repeat(1000),
  "{".repeat(1000),
  // Long and odd strings (GitHub caps a query at 256, SQLite's LIKE pattern at 50,000 bytes; a real id is ~30).
  "x".repeat(300),
  "y".repeat(5000),
  `id_${"9".repeat(57)}`,
  // Huge and odd numbers.
  "99999999999999999999",
  "-1",
  "1e308",
  "-1e308",
  "NaN",
  "Infinity",
  "0x7f",
  "1.5",
  // Unicode and control characters.
  "💩".repeat(100),
  "\u202eevil\u0000",
  "\ud800",
  "İıßǅ",
  // The vendors' own query syntaxes, bent.
  "newer_than:soon",
  "from:(a OR (b AND (c",
  "is:unread OR ".repeat(400),
  "in:#general from:@nobody",
  'email~"%" AND name:"_"',
  "{ issues { nodes { id } } }",
  "__proto__",
];

/** Hostile text: a named value, generated nesting, a long run, metacharacter soup or any unicode. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 2, arbitrary: nesting },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5000 }).map((n) => "a".repeat(n)) },
  {
    weight: 2,
    arbitrary: fc.string({ unit: fc.constantFrom(..."()[]{}*+?.^$|\\%_:\"'-~ a".split("")), minLength: 1, maxLength: 80 }),
  },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
);

/** A JSON value where a twin expects one of its own: hostile text, a huge number, a wrong type, deep nesting. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.constantFrom(1e20, -1, 1e308, -1e308, 0.5, Number.MAX_SAFE_INTEGER + 2, 0) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, [], {}, ["x"], { $gt: "" }) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 2000 }).map((d) => JSON.parse(nested(d)) as unknown) },
  { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 3 }) },
);

/**
 * The filter and paging parameters the issue names, which every twin is sent whether or not it
 * reads them: a twin that starts reading one is covered already.
 */
export const FILTER_PARAMS = [
  "q",
  "type",
  "types",
  "query",
  "page",
  "per_page",
  "limit",
  "maxResults",
  "starting_after",
  "ending_before",
  "cursor",
  "pageToken",
  "after",
  "before",
  "first",
  "state",
  "sort",
  "labels",
  "labelIds",
  "count",
] as const;

/** A query of one to three of `params` with hostile values, sometimes in Stripe's bracket forms (`a[]`, `a[b][c]…`). */
export function hostileQuery(params: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...params) },
    { weight: 1, arbitrary: fc.constantFrom(...params).map((p) => `${p}[]`) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...params), fc.integer({ min: 1, max: 500 })).map(([p, d]) => `${p}${"[a]".repeat(d)}`),
    },
  );
  return fc.array(fc.tuple(key, hostileText), { minLength: 1, maxLength: 3 }).map((pairs) => new URLSearchParams(pairs).toString());
}

/** A body naming the twin's own fields with hostile values: JSON, a form (Stripe, Slack), or deep form keys. */
export function hostileBody(fields: readonly string[]): fc.Arbitrary<{ body: string; type: string }> {
  const json = fc
    .dictionary(fc.constantFrom(...fields), hostileJson, { minKeys: 1, maxKeys: 4 })
    .map((o) => ({ body: JSON.stringify(o), type: "application/json" }));
  const form = fc
    .array(fc.tuple(fc.constantFrom(...fields), hostileText), { minLength: 1, maxLength: 4 })
    .map((pairs) => ({ body: new URLSearchParams(pairs).toString(), type: "application/x-www-form-urlencoded" }));
  const deepForm = fc
    .tuple(fc.constantFrom(...fields), fc.integer({ min: 10, max: 2000 }))
    .map(([f, d]) => ({ body: `${encodeURIComponent(`${f}${"[x]".repeat(d)}`)}=1`, type: "application/x-www-form-urlencoded" }));
  return fc.oneof({ weight: 3, arbitrary: json }, { weight: 2, arbitrary: form }, { weight: 1, arbitrary: deepForm });
}

/** A hostile value for a path parameter, already encoded for the URL. */
export const hostilePathValue: fc.Arbitrary<string> = hostileText
  .filter((s) => s !== "." && s !== ".." && s.length > 0)
  // A lone surrogate cannot be percent-encoded; the client would have sent U+FFFD.
  .map((s) => encodeURIComponent(s.replace(/\p{Cs}/gu, "\ufffd")));
