// Redaction is one pure module parameterised by secret patterns (durable-objects/redaction.ts);
// the platform binds it once to every registered twin's patterns and its own (redact.ts). These
// tests hold both halves to that: a redactor sees only the shapes it was given, however they are
// spelled, and the platform's binding is exactly the registry's patterns followed by its own.
import { describe, expect, it } from "vitest";
import * as platform from "../../../durable-objects/redact";
import { createRedactor, REDACTED } from "../../../durable-objects/redaction";
import { TWIN_IDS, twinById } from "../../../durable-objects/twins/registry";

/** A secret shape no twin and not the platform uses, so only a redactor given it can know it. */
const ACME = /\bacme_[A-Za-z0-9]{10,}/g;
const acmeKey = `acme_${"k".repeat(24)}`;
const githubToken = `ghp_${"a".repeat(36)}`;

describe("a redactor knows the secret shapes it is given, and only those", () => {
  const acme = createRedactor([ACME]);

  it("redacts its own shape in text and leaves every other shape alone", () => {
    expect(acme.redactText(`key ${acmeKey} and ${githubToken}`)).toBe(`key ${REDACTED} and ${githubToken}`);
    expect(acme.containsSecret(acmeKey)).toBe(true);
    expect(acme.containsSecret(githubToken)).toBe(false);
  });

  it("finds its shape escaped in JSON, percent-encoded in a URL part, and base64-encoded in a string", () => {
    const escaped = JSON.stringify({ note: "k" }).replace('"k"', `"${acmeKey.replace("_", "\\u005f")}"`);
    expect(acme.redactBody(escaped)).toBe(JSON.stringify({ note: REDACTED }));
    expect(acme.redactPath(`/search/${encodeURIComponent(acmeKey).replace("_", "%5F")}/x`)).toBe(`/search/${REDACTED}/x`);
    expect(acme.redactQuery(`q=${acmeKey.replace("_", "%5F")}&page=2`)).toBe(`q=${REDACTED}&page=2`);
    expect(acme.redactString(btoa(`the key is ${acmeKey}`))).toBe(btoa(`the key is ${REDACTED}`));
  });

  it("redacts keys as well as values, and gives back the very value when nothing is secret", () => {
    const clean = { title: "Login fails", tags: ["a", "b"] };
    expect(acme.redactValue(clean)).toBe(clean);
    expect(acme.redactValue({ [acmeKey]: acmeKey })).toEqual({ [REDACTED]: REDACTED });
  });

  it("remembers nothing another redactor learned: each is bound to its own patterns", () => {
    const other = createRedactor([/\bghp_[A-Za-z0-9]{20,}/g]);
    // The same key and the same base64 run through both: each answers for its own patterns.
    const value = { [acmeKey]: btoa(`token ${githubToken}`) };
    expect(acme.redactValue(value)).toEqual({ [REDACTED]: btoa(`token ${githubToken}`) });
    expect(other.redactValue(value)).toEqual({ [acmeKey]: btoa(`token ${REDACTED}`) });
    expect(acme.redactValue(value)).toEqual({ [REDACTED]: btoa(`token ${githubToken}`) });
  });

  it("reads its patterns once: changing the array afterwards changes nothing", () => {
    const patterns = [ACME];
    const bound = createRedactor(patterns);
    patterns.push(/\bghp_[A-Za-z0-9]{20,}/g);
    expect(bound.redactText(githubToken)).toBe(githubToken);
    expect(bound.patterns).toEqual([ACME]);
  });

  it("redacts nothing when given no patterns", () => {
    const none = createRedactor([]);
    const body = JSON.stringify({ token: githubToken, key: acmeKey });
    expect(none.redactBody(body)).toBe(body);
    expect(none.redactText(acmeKey)).toBe(acmeKey);
  });
});

describe("the platform's redaction is bound to every registered twin's patterns, then its own", () => {
  it("applies each twin's secret patterns, in registry order, before the platform's", () => {
    const twinPatterns = TWIN_IDS.flatMap((id) => twinById(id).secretPatterns);
    const bound = platform.secretPatterns();
    expect(bound.slice(0, twinPatterns.length)).toEqual(twinPatterns);
    for (const [i, pattern] of twinPatterns.entries()) expect(bound[i]).toBe(pattern);
    // The platform's own credential shapes follow: its team keys among them.
    expect(bound.length).toBeGreaterThan(twinPatterns.length);
    expect(platform.containsSecret(`pme_${"x".repeat(20)}`)).toBe(true);
  });

  it("redacts as a redactor built from those same patterns does", () => {
    const rebuilt = createRedactor(platform.secretPatterns());
    const samples = [
      `use ${githubToken} then Bearer ${"b".repeat(20)}`,
      JSON.stringify({ note: `see ${btoa(`token is ${githubToken}`)} here`, key: `sk_test_${"c".repeat(24)}` }),
      `xoxb-${"1".repeat(12)}-${"d".repeat(24)}`,
      "nothing secret here",
    ];
    for (const text of samples) {
      expect(platform.redactText(text)).toBe(rebuilt.redactText(text));
      expect(platform.redactBody(text)).toBe(rebuilt.redactBody(text));
      expect(platform.redactString(text)).toBe(rebuilt.redactString(text));
    }
  });
});
