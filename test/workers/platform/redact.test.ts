// redactText's one-scan fast path must never change what is redacted: compare it with applying
// each secret pattern (the platform's and every twin's) in turn, on texts built from
// secret-shaped and ordinary fragments.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED, redactText, secretPatterns } from "../../../durable-objects/redact";

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
