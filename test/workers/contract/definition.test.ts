// The contract every registered twin passes, read from its definition alone: seeds round-trip,
// unknown keys are refused at their path, every tool stands for a route it implements (and every
// route has a tool or a written reason), and every check's sentence binds back to itself. A new
// twin is checked by this file the day it is added to the registry.
import { describe, expect, it } from "vitest";
import { matchRoute } from "../../../durable-objects/dispatch";
import { normalizeSeed } from "../../../durable-objects/twins/normalize";
import { DEFAULT_TWIN, TWIN_IDS, twinById } from "../../../durable-objects/twins/registry";
import { parseTask } from "../../../workers/tasks";
import { bindSentence, exampleSentence, renderCheck } from "../../../workers/grading/binding";
import { vocabularyDigest } from "../../../workers/grading/vocabulary";
import { sampleArgs } from "../kit/sample-args";
import { inTwinWorld } from "../kit/world";

/** The sandbox clock of the round trips: normalizing and booting read the same moment. */
const AT = Date.UTC(2026, 2, 3, 12, 0, 0);
const clock = { now: () => AT };

/** A twin's seed normalized as the sandbox does it (parser, then completion): what export(boot(seed)) must give back. */
async function normalized(id: (typeof TWIN_IDS)[number], raw: unknown): Promise<unknown> {
  const parsed = await normalizeSeed(twinById(id), raw, clock);
  if (!parsed.ok) throw new Error(`${id}: seed refused: ${JSON.stringify(parsed.issues.slice(0, 5))}`);
  return parsed.seed;
}

describe("the registry", () => {
  it("defaults a task that names no twins to its first twin", () => {
    const parsed = parseTask("# t\n\n## Prompt\nDo it.\n");
    expect(parsed.ok && parsed.task.config.twins).toEqual([DEFAULT_TWIN]);
    expect(DEFAULT_TWIN).toBe(TWIN_IDS[0]);
  });
});

describe.each(TWIN_IDS)("the %s twin's definition", (id) => {
  const twin = twinById(id);

  describe("seeds", () => {
    it("parses its own default world", () => {
      expect(twin.parseSeed(twin.defaultSeed()).ok).toBe(true);
    });

    it("exports the default world it booted as the normalized seed, which seeds again", async () => {
      const seed = await normalized(id, twin.defaultSeed());
      const exported = await inTwinWorld(twin, seed, (w) => w.exportState(), clock);
      expect(exported).toEqual(seed);
      expect(await normalized(id, exported)).toEqual(seed);
    });

    it("generates worlds of any size that round-trip the same way", async () => {
      for (const count of [1, 25]) {
        const seed = await normalized(id, twin.generateSeed(count));
        const exported = await inTwinWorld(twin, seed, (w) => w.exportState(), clock);
        expect(exported).toEqual(seed);
      }
      expect(twin.generateSeed(25)).toEqual(twin.generateSeed(25));
    });

    it("refuses an unknown key at its own path", () => {
      const base = twin.defaultSeed();
      const raw = typeof base === "object" && base !== null ? { ...base, pome_contract_unknown: true } : { pome_contract_unknown: true };
      const parsed = twin.parseSeed(raw);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.issues.map((i) => i.path)).toContain("pome_contract_unknown");
    });

    it("refuses a seed that is not an object, with a path", () => {
      const parsed = twin.parseSeed(["not", "an", "object"]);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.issues.length).toBeGreaterThan(0);
    });
  });

  describe("route declarations", () => {
    it("declares every route's inputs once, the source of its tool and its OpenAPI entry (kit/route.ts)", () => {
      expect(twin.routes.filter((r) => !r.declaration).map((r) => `${r.method} ${r.pattern}`)).toEqual([]);
    });

    it("derives each declared tool's name once", () => {
      const declared = twin.routes.flatMap((r) => (r.declaration?.tool ? [r.declaration.tool.name] : []));
      expect(new Set(declared).size).toBe(declared.length);
      const served = new Set(twin.tools.map((t) => t.name));
      for (const name of declared) expect(served.has(name), name).toBe(true);
    });
  });

  describe("MCP tools", () => {
    const covered = new Map<string, string>();
    for (const tool of twin.tools) {
      const request = tool.toRequest(sampleArgs(tool.input));
      const match = matchRoute(twin, request.method, request.path);
      if (match) covered.set(match.route.operation, tool.name);
    }

    it.each(twin.tools.map((t) => [t.name, t] as const))("%s maps onto a route the twin implements", (_name, tool) => {
      const request = tool.toRequest(sampleArgs(tool.input));
      expect(matchRoute(twin, request.method, request.path), `${request.method} ${request.path}`).toBeDefined();
      expect(tool.description.length).toBeGreaterThan(10);
    });

    it("has a tool for every route, or a written reason why not", () => {
      const operations = [...new Set(twin.routes.map((r) => r.operation))];
      const missing = operations.filter((op) => !covered.has(op) && !twin.untooledOperations?.[op]);
      expect(missing).toEqual([]);
      for (const [op, reason] of Object.entries(twin.untooledOperations ?? {})) {
        expect(operations, `untooledOperations names ${op}, which is not a route`).toContain(op);
        expect(reason.length).toBeGreaterThan(10);
      }
    });

    it("carries out every tool of the vendor's own published set, if it serves one", () => {
      expect(twin.officialTools?.unrun ?? []).toEqual([]);
    });

    it("names each tool once", () => {
      const names = twin.tools.map((t) => t.name);
      expect(new Set(names).size).toBe(names.length);
    });
  });

  describe("check vocabulary", () => {
    it("prefixes every check id with the twin's id, once each", () => {
      const ids = twin.checks.map((c) => c.id);
      for (const checkId of ids) expect(checkId.startsWith(`${id}.`), checkId).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it("serves the tape check every twin shares", () => {
      expect(twin.checks.map((c) => c.id)).toContain(`${id}.no-unsupported-endpoint`);
    });

    it.each(twin.checks.map((c) => [c.id, c] as const))("%s renders its examples and binds back to itself", (_id, check) => {
      const args = Object.fromEntries(check.params.map((p) => [p.name, p.example]));
      const rendered = renderCheck(check, args);
      expect(rendered).toEqual({ ok: true, text: exampleSentence(check) });
      const bound = bindSentence(twin.checks, rendered.ok ? rendered.text : "");
      expect(bound?.check.id).toBe(check.id);
      expect(bound?.args).toEqual(args);
    });

    it("has a digest that depends on the vocabulary alone", async () => {
      const first = await vocabularyDigest(id, twin.checks);
      expect(await vocabularyDigest(id, [...twin.checks])).toBe(first);
      expect(first).toMatch(/^sha256:[0-9a-f]{64}$/);
    });
  });
});
