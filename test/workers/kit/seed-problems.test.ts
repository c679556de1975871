// What every seed normalizer repeats, in the kit: resolving a reference to another seeded object
// and refusing a second entry with one key, each problem at the path a user would edit.
import { describe, expect, it } from "vitest";
import { SeedProblems } from "../../../durable-objects/twins/kit/seed";

describe("a reference to another seeded object resolves or is refused at its path", () => {
  it("gives the object a key names, and reports a missing one with the twin's message", () => {
    const p = new SeedProblems();
    const users = new Map([["ada@x.test", { id: "u1" }]]);
    expect(p.resolve(users, "ada@x.test", "issues[0].assignee", (k) => `Unknown user "${k}"`)).toEqual({ id: "u1" });
    expect(p.resolve(users, "bob@x.test", "issues[1].assignee", (k) => `Unknown user "${k}"`)).toBeUndefined();
    expect(p.issues).toEqual([{ path: "issues[1].assignee", message: 'Unknown user "bob@x.test"', code: "invalid_reference" }]);
  });

  it("treats no key as no reference", () => {
    const p = new SeedProblems();
    expect(p.resolve(new Map<string, number>(), null, "x", () => "never")).toBeUndefined();
    expect(p.resolve(new Map<string, number>(), undefined, "x", () => "never")).toBeUndefined();
    expect(p.ok).toBe(true);
  });
});

describe("a key is taken once", () => {
  it("refuses the later entry with a duplicate problem and keeps counting the key as taken", () => {
    const p = new SeedProblems();
    const names = new Set<string>();
    p.unique(names, "bug", "labels[0].name", 'Duplicate label "bug"');
    p.unique(names, "bug", "labels[1].name", 'Duplicate label "bug"');
    p.unique(names, "docs", "labels[2].name", 'Duplicate label "docs"');
    expect(p.issues).toEqual([{ path: "labels[1].name", message: 'Duplicate label "bug"', code: "duplicate" }]);
    expect([...names]).toEqual(["bug", "docs"]);
    expect(p.result({})).toEqual({ ok: false, issues: p.issues });
  });
});
