// The nesting bound every GraphQL twin parses under: brackets counted in one pass over the text,
// strings and comments aside, so no document reaches a recursive walk deeper than the bound.
import { describe, expect, it } from "vitest";
import { MAX_NESTING, nestsDeeperThan, parseBounded } from "../../../durable-objects/twins/kit/graphql-limits";

describe("nestsDeeperThan", () => {
  it("counts braces, brackets and parentheses together", () => {
    expect(nestsDeeperThan("{ a { b } }", 2)).toBe(false);
    expect(nestsDeeperThan("{ a { b(x: [{ y: 1 }]) } }", 4)).toBe(true);
    expect(nestsDeeperThan("{ a { b(x: [{ y: 1 }]) } }", 5)).toBe(false);
  });

  it("ignores brackets inside strings, block strings and comments", () => {
    expect(nestsDeeperThan(`{ a(s: "{{{{ \\" {{{{") }`, 2)).toBe(false);
    expect(nestsDeeperThan(`{ a(s: """ {{{{ \\""" {{{ """) }`, 2)).toBe(false);
    expect(nestsDeeperThan("# {{{{{{\n{ a }", 1)).toBe(false);
  });

  it("is not fooled by closing brackets before opening ones", () => {
    expect(nestsDeeperThan(`${"}".repeat(50)}${"{".repeat(4)}`, 3)).toBe(true);
  });
});

describe("parseBounded", () => {
  it("parses a document at the bound and refuses one past it with a RangeError, before the parser recurses", () => {
    const at = `${"{ a ".repeat(MAX_NESTING)}${"}".repeat(MAX_NESTING)}`;
    expect(parseBounded(at, { maxTokens: 100_000 }).definitions).toHaveLength(1);
    const past = `${"{ a ".repeat(MAX_NESTING + 1)}${"}".repeat(MAX_NESTING + 1)}`;
    expect(() => parseBounded(past, { maxTokens: 100_000 })).toThrow(RangeError);
    // A hundred thousand levels: the pass over the text answers, where the parser would overflow.
    expect(() => parseBounded("{ a ".repeat(100_000), { maxTokens: 1_000_000 })).toThrow(RangeError);
  });
});
