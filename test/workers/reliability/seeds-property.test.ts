// Seeds and sentences, property-based, for every registered twin: random valid worlds round-trip
// through sandbox creation; random invalid ones are refused with a path, identically by
// /v1/seeds/validate and POST /v1/sandboxes (one rule); random sentences never bind to a check.
import { SELF } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeSeed } from "../../../durable-objects/twins/normalize";
import { TWIN_IDS, twinById } from "../../../durable-objects/twins/registry";
import { bindSentence } from "../../../workers/grading/binding";
import { STUB_TASK, postJson } from "../helpers";

type Path = (string | number)[];

function leaves(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, [...path, i], out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], out);
  else out.push(path);
  return out;
}

function setAt(root: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((v, i) => (i === head ? setAt(v, rest, replacement) : v));
  if (root && typeof root === "object")
    return { ...root, [head]: setAt((root as Record<string, unknown>)[String(head)], rest, replacement) };
  return root;
}

const replacement = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.string({ maxLength: 12 }),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant({ unexpected_key: 1 }),
);

describe.each(TWIN_IDS)("seeds of the %s twin", (id) => {
  const twin = twinById(id);
  const base = twin.defaultSeed();
  const paths = leaves(base);

  it.runIf(twin.generateSeed !== undefined)("round-trip a random generated world through validate, create and /_pome/state", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 12 }), async (count) => {
        const seed = twin.generateSeed?.(count);
        const parsed = await normalizeSeed(twin, seed);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const validate = await postJson("/v1/seeds/validate", { twins: [id], seed });
        expect(validate.status).toBe(200);
        const created = await postJson("/v1/sandboxes", { twins: [id], task_source: STUB_TASK, seed });
        expect(created.status).toBe(201);
        const sandbox = await created.json<{ agent_token: string; per_twin: Record<string, { api_url: string }> }>();
        const state = await (
          await SELF.fetch(`${sandbox.per_twin[id].api_url}/_pome/state`, { headers: { authorization: `Bearer ${sandbox.agent_token}` } })
        ).json();
        expect(state).toEqual(JSON.parse(JSON.stringify(parsed.seed)));
      }),
      { numRuns: 8 },
    );
  });

  it.runIf(paths.length > 0)("refuses a randomly broken world with a path, the same way on validate and create", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), replacement, async (path, value) => {
        const seed = setAt(base, path, value);
        const parsed = await normalizeSeed(twin, seed);
        const validate = await postJson("/v1/seeds/validate", { twins: [id], seed });
        const create = await postJson("/v1/sandboxes", { twins: [id], task_source: STUB_TASK, seed });
        if (parsed.ok) {
          expect(validate.status).toBe(200);
          expect(create.status).toBe(201);
          return;
        }
        expect(
          parsed.issues.every((i) => i.path.length > 0),
          JSON.stringify(parsed.issues),
        ).toBe(true);
        expect(validate.status).toBe(422);
        expect(create.status).toBe(422);
        const v = await validate.json<{ error: { details: unknown } }>();
        const c = await create.json<{ error: { details: unknown } }>();
        expect(c.error.details).toEqual(v.error.details);
      }),
      { numRuns: 40 },
    );
  });

  it.runIf(twin.checks.length > 0)("never binds a random sentence to a check by accident", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.lorem({ mode: "sentences", maxCount: 2 }),
          fc.string({ maxLength: 120 }),
          fc.string({ unit: "grapheme", maxLength: 80 }),
        ),
        (text) => {
          expect(bindSentence(twin.checks, text), text).toBeUndefined();
        },
      ),
      { numRuns: 3000 },
    );
  });
});
