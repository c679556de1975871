// redactText's one-scan fast path must never change what is redacted: compare it with applying
// each secret pattern (the platform's and every twin's) in turn, on texts built from
// secret-shaped and ordinary fragments.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED, redactBody, redactString, redactText, redactValue, secretPatterns, someLongRun } from "../../../durable-objects/redact";

/** Every pattern in turn, as redaction always worked. */
const oneByOne = (text: string) => secretPatterns().reduce((out, p) => out.replace(p, REDACTED), text);

const fragment = fc.oneof(
  fc.constantFrom(
    "github_pat_",
    "ghp_",
    "gho_",
    "sk_test_",
    "rk_live_",
    "xoxb-",
    "ya29.",
    "lin_api_",
    "pme_",
    "eyJ",
    ".eyJ",
    "Bearer ",
    "token ",
    '"',
    " ",
    "\n",
    "\t",
    "/",
    "_",
    "-",
    ".",
  ),
  fc.stringMatching(/^[A-Za-z0-9]{1,30}$/),
  fc.string({ maxLength: 8 }),
);

describe("redactText", () => {
  it("redacts exactly what the patterns applied one by one redact", () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        expect(redactText(text)).toBe(oneByOne(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("returns a text without secrets unchanged, and redacts one that has them", () => {
    const body = JSON.stringify({ title: "Login fails", body: "token expired at 10:00" });
    expect(redactText(body)).toBe(body);
    expect(redactText(`use ghp_${"a".repeat(36)} then Bearer ${"b".repeat(20)}`)).toBe(`use ${REDACTED} then ${REDACTED}`);
  });
});

/** The walk as it always was: every array and object copied, every string and key redacted. */
function copyingWalk(value: unknown): unknown {
  if (typeof value === "string") return redactString(value);
  if (Array.isArray(value)) return value.map(copyingWalk);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, redactText(k), { value: copyingWalk(v), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

describe("redactValue", () => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.array(fragment, { maxLength: 6 }).map((parts) => parts.join("")),
      fc.integer(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(
        fc.array(fragment, { maxLength: 3 }).map((parts) => parts.join("")),
        tie("value"),
        { maxKeys: 4 },
      ),
    ),
  })).value;

  it("gives what copying and redacting everything gives, and the very value when nothing changed", () => {
    fc.assert(
      fc.property(json, (value) => {
        const redacted = redactValue(value);
        const copied = copyingWalk(value);
        expect(JSON.stringify(redacted)).toBe(JSON.stringify(copied));
        if (JSON.stringify(copied) === JSON.stringify(value)) expect(redacted).toBe(value);
        else expect(redacted).not.toBe(value);
      }),
      { numRuns: 1000 },
    );
  });

  it("redacts a secret every time it repeats, among thousands of objects that share their keys", () => {
    const secret = `ghp_${"b".repeat(36)}`;
    const rows = Array.from({ length: 5000 }, (_, i) => ({ title: `Row ${i}`, state: "open", token: i % 1000 === 999 ? secret : null }));
    const withSecretKey = [...rows, { title: "x", state: "open", [secret]: 1 }];
    const redacted = redactValue(withSecretKey) as Record<string, unknown>[];
    expect(redacted.filter((r) => r.token === REDACTED)).toHaveLength(5);
    expect(redacted.some((r) => r.token === secret)).toBe(false);
    expect(Object.keys(redacted[5000])).toEqual(["title", "state", REDACTED]);
    // Nothing secret: the very same value comes back, cached answers or not.
    const clean = rows.slice(0, 999);
    expect(redactValue(clean)).toBe(clean);
    expect(redactValue(clean)).toBe(clean);
  });

  it("keeps a __proto__ key a key when it copies", () => {
    const value = JSON.parse(`{"__proto__": {"a": 1}, "b": "ghp_${"a".repeat(36)}"}`) as Record<string, unknown>;
    const redacted = redactValue(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.keys(redacted)).toEqual(["__proto__", "b"]);
    expect(redacted.b).toBe(REDACTED);
  });
});

describe("someLongRun", () => {
  /** Every run of 20 or more base64 characters with up to two `=`, and the index past it, read one character at a time. */
  function runsReadCharByChar(text: string): [string, number][] {
    const out: [string, number][] = [];
    const base64 = (i: number) => i < text.length && /[A-Za-z0-9+/]/.test(text[i]);
    for (let i = 0; i < text.length; ) {
      if (!base64(i)) {
        i++;
        continue;
      }
      let j = i + 1;
      while (base64(j)) j++;
      if (j - i < 20) {
        i = j;
        continue;
      }
      let end = j;
      while (end < text.length && end - j < 2 && text[end] === "=") end++;
      out.push([text.slice(i, end), end]);
      i = end;
    }
    return out;
  }
  // Runs of every length around 20, padding, separators and characters outside ASCII.
  const text = fc
    .array(
      fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9+/]{1,45}$/),
        fc.constantFrom("=", "==", "===", " ", "\n", '"', "-", "_", ".", "é", "€", "%2F"),
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join(""));

  it("meets the runs that reading every character meets, in order, with the same end", () => {
    fc.assert(
      fc.property(text, (t) => {
        const seen: [string, number][] = [];
        const collect = (run: string, end: number) => {
          seen.push([run, end]);
          return false;
        };
        expect(someLongRun(t, collect)).toBe(false);
        expect(seen).toEqual(runsReadCharByChar(t));
      }),
      { numRuns: 2000 },
    );
  });

  it("with mixedCaseOnly, meets exactly the runs holding both an upper- and a lower-case letter", () => {
    fc.assert(
      fc.property(text, (t) => {
        const seen: [string, number][] = [];
        someLongRun(
          t,
          (run, end) => {
            seen.push([run, end]);
            return false;
          },
          { mixedCaseOnly: true },
        );
        expect(seen).toEqual(runsReadCharByChar(t).filter(([run]) => /[A-Z]/.test(run) && /[a-z]/.test(run)));
      }),
      { numRuns: 2000 },
    );
  });

  it("stops at the first run the test accepts", () => {
    fc.assert(
      fc.property(text, fc.nat(3), (t, k) => {
        const runs = runsReadCharByChar(t);
        let calls = 0;
        const found = someLongRun(t, () => ++calls > k);
        expect(found).toBe(runs.length > k);
        expect(calls).toBe(Math.min(runs.length, k + 1));
      }),
    );
  });
});

describe("redactBody on base64 runs", () => {
  it("redacts a base64-encoded secret every time it sees it, and leaves a run that hides none alone every time", () => {
    const secret = `ghp_${"a".repeat(36)}`;
    const hiding = JSON.stringify({ note: `see ${btoa(`token is ${secret}`)} here` });
    const plain = JSON.stringify({ url: "http://127.0.0.1:1/github/s/ses_AbCdEfGhIjKlMnOp/repos/o/r" });
    for (let i = 0; i < 3; i++) {
      expect(redactBody(hiding)).not.toContain(btoa(`token is ${secret}`));
      expect(redactBody(plain)).toBe(plain);
    }
  });
});

describe("redactBody on JSON", () => {
  // A body's escapes (`\n`, `\t`, `\/`…) stand between a secret and the plain-text patterns: in
  // the text `\npme_…` the prefix follows a letter, and `\/` cuts a token short. Redacting the
  // body must redact what the parsed value holds.
  it("redacts a secret right after an escape", () => {
    for (const value of [
      { a: "line one\npme_abcdefghijkl" },
      { a: `tab\tghp_${"a".repeat(36)}` },
      { a: "token\nabcdefghijklmnopqrstuvwxyz" },
      { a: "Bearer abcdefghijklmnopqr/stuvwxyz0123456789" },
    ]) {
      const body = JSON.stringify(value);
      expect(JSON.parse(redactBody(body)), body).toEqual(redactValue(value));
      expect(redactBody(body)).not.toBe(body);
    }
  });

  it("stores what redacting the parsed value gives, for bodies built from secret-shaped fragments", () => {
    const text = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(""));
    const value = fc.oneof(fc.dictionary(text, text, { maxKeys: 3 }), fc.array(text, { maxLength: 3 }));
    fc.assert(
      fc.property(value, (v) => {
        expect(JSON.parse(redactBody(JSON.stringify(v)))).toEqual(redactValue(v));
      }),
      { numRuns: 1000 },
    );
  });

  it("does so however the body spells its strings (`\\/` for `/`, `\\u005f` for `_`, as other encoders write them)", () => {
    const text = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(""));
    const value = fc.oneof(fc.dictionary(text, text, { maxKeys: 3 }), fc.array(text, { maxLength: 3 }));
    fc.assert(
      fc.property(value, fc.boolean(), (v, unicode) => {
        // Every "/" and "_" of these values is inside a string, where both spellings are valid JSON.
        const body = JSON.stringify(v)
          .replaceAll("/", "\\/")
          .replaceAll("_", unicode ? "\\u005f" : "_");
        expect(JSON.parse(redactBody(body))).toEqual(redactValue(v));
      }),
      { numRuns: 1000 },
    );
  });
});
