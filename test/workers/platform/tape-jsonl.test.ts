// events.jsonl is written from the tape's stored text; each line must carry exactly the value the
// old way (parse every body, then JSON.stringify the row) gave.
import { env, runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isVerbatimJson } from "../../../durable-objects/json-text";
import { Db } from "../../../durable-objects/sql";
import { bodyJson, readTape, tapeJsonl, tapeToJsonl } from "../../../durable-objects/tape";
import { createSandbox, twinFetch } from "../helpers";

/** What the tape gave before: the body parsed when it is JSON, then serialized. */
const oldWay = (text: string) => {
  if (text === "") return "null";
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return JSON.stringify(text);
  }
};

describe("bodyJson: a stored body as it goes into a JSONL line", () => {
  it("parses to the value the parse-and-serialize path gives, for any JSON text", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, 2, "\t"), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const line = bodyJson(text);
        expect(line).not.toMatch(/[\n\r]/);
        expect(JSON.parse(line)).toEqual(JSON.parse(oldWay(text)));
      }),
      { numRuns: 1000 },
    );
  });

  it("parses to the same value for any text at all", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
        const line = bodyJson(text);
        expect(line).not.toMatch(/[\n\r]/);
        expect(JSON.parse(line)).toEqual(JSON.parse(oldWay(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps twin responses verbatim and sends the odd cases down the exact path", () => {
    const response = JSON.stringify({ id: 1, title: "Crash on start", labels: [{ name: "bug" }], body: "line\nbreak", closed_at: null });
    expect(bodyJson(response)).toBe(response);
    expect(isVerbatimJson('  {"a": [1, 2.5, -3], "b": "x"}\t')).toBe(true);
    for (const odd of ["-0", "[1e400]", "1E2", '{"a":1,\n"b":2}', '"\ud800"', '"\\u00e9"x', "{'a':1}", "[1,]", "01", "nul", "", " "]) {
      expect(isVerbatimJson(odd), odd).toBe(false);
      expect(JSON.parse(bodyJson(odd === "" ? "" : odd))).toEqual(JSON.parse(oldWay(odd)));
    }
    const deep = `${"[".repeat(300)}${"]".repeat(300)}`;
    expect(isVerbatimJson(deep)).toBe(false);
    expect(bodyJson(deep)).toBe(oldWay(deep));
  });
});

describe("tapeJsonl: events.jsonl from the stored text", () => {
  it("has one line per row, each the value readTape gives", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/repos/acme/api");
    await twinFetch(sandbox, "/repos/acme/api/issues", {
      method: "POST",
      body: '{\n  "title": "Pretty printed",\n  "body": "with ghp_abcdefghijklmnopqrstuvwxyz0123456789"\n}',
    });
    await twinFetch(sandbox, "/repos/acme/api/issues", { method: "POST", body: "not json at all" });
    await twinFetch(sandbox, "/nowhere/at/all");
    await twinFetch(sandbox, "/repos/acme/api/issues?per_page=2");
    await runInDurableObject(env.SANDBOX.getByName(sandbox.session_id), (_instance, state) => {
      const db = new Db(state.storage.sql);
      const text = tapeJsonl(db);
      const rows = readTape(db);
      expect(rows.length).toBe(5);
      expect(text.endsWith("\n")).toBe(true);
      const lines = text.trimEnd().split("\n");
      expect(lines.map((l) => JSON.parse(l))).toEqual(rows);
      // The same value as the old writer's lines, and where bodies were already canonical, the same bytes.
      expect(lines.map((l) => JSON.parse(l))).toEqual(
        tapeToJsonl(rows)
          .trimEnd()
          .split("\n")
          .map((l) => JSON.parse(l)),
      );
      expect(lines[0]).toBe(JSON.stringify(rows[0]));
      expect(text).not.toContain("ghp_abcdefghijklmnop");
    });
  });
});
