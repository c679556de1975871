// /v1/checks: each twin's closed check vocabulary, and the render/bind pair over it. Both run the
// binding code the grader runs, so what they report is what finalize will do.
import { Hono } from "hono";
import { z } from "zod";
import type { TwinId } from "../../durable-objects/twins/registry";
import { TWIN_IDS, isTwinId } from "../../durable-objects/twins/registry";
import type { AppEnv } from "../app-env";
import { parseWith, readJson } from "../body";
import { ApiError } from "../errors";
import { bindSentence, renderCheck } from "../grading/binding";
import { resolveSeeds } from "../seeds";
import { criteriaTrueInSeed } from "../tasks/seed-exclusions";
import { describeCheck, findCheck, nearestTemplates, vocabularyDigest, vocabularyFor } from "../grading/vocabulary";

const BODY_LIMIT = 1024 * 1024;

function requireTwin(value: unknown, path = "twin"): TwinId {
  if (value === undefined || value === null || value === "")
    throw new ApiError("validation_failed", `${path}: name a twin (${TWIN_IDS.join(", ")})`, { issues: [{ path, message: "Required" }] });
  if (!isTwinId(value))
    throw new ApiError("validation_failed", `${path}: unknown twin "${String(value)}"; known twins: ${TWIN_IDS.join(", ")}`, {
      issues: [{ path, message: "Unknown twin" }],
      known_twins: TWIN_IDS,
    });
  return value;
}

const RenderBody = z.strictObject({
  twin: z.unknown(),
  items: z
    .array(z.strictObject({ check: z.string(), args: z.record(z.string(), z.unknown()) }))
    .min(1, "send 1–100 items")
    .max(100, "send 1–100 items"),
});

const BindBody = z.strictObject({
  twin: z.unknown(),
  texts: z.array(z.string()).min(1, "send 1–100 texts").max(100, "send 1–100 texts"),
  /** This twin's seed (as POST /v1/sandboxes takes it); absent: its default world. Names which texts the seed already satisfies. */
  seed: z.unknown().optional(),
  /** Positions of texts marked always_scored, which the seed may satisfy without being excluded. */
  always_scored: z.array(z.number().int().min(0)).max(100).optional(),
});

export const checkRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const twin = requireTwin(c.req.query("twin"));
    const checks = vocabularyFor(twin);
    return c.json({ twin, count: checks.length, digest: await vocabularyDigest(twin, checks), checks: checks.map(describeCheck) });
  })
  .post("/render", async (c) => {
    const body = parseWith(RenderBody, await readJson(c, BODY_LIMIT));
    const twin = requireTwin(body.twin);
    const issues: { path: string; message: string }[] = [];
    const lines = body.items.map((item, i) => {
      const check = findCheck(twin, item.check);
      if (!check) {
        issues.push({
          path: `items[${i}].check`,
          message: `"${item.check}" is not a ${twin} check; GET /v1/checks?twin=${twin} lists them`,
        });
        return "";
      }
      const rendered = renderCheck(check, item.args);
      if (rendered.ok) return rendered.text;
      issues.push(...rendered.problems.map((p) => ({ path: `items[${i}].args.${p.path}`, message: p.message })));
      return "";
    });
    if (issues.length) throw new ApiError("validation_failed", `${issues[0].path}: ${issues[0].message}`, { issues });
    return c.json({ twin, lines });
  })
  .post("/bind", async (c) => {
    const body = parseWith(BindBody, await readJson(c, BODY_LIMIT));
    const twin = requireTwin(body.twin);
    const checks = vocabularyFor(twin);
    const seeds = body.seed === undefined ? {} : (await resolveSeeds([twin], body.seed)).seeds;
    const always = new Set(body.always_scored ?? []);
    const excluded = new Map(
      criteriaTrueInSeed(
        body.texts.map((text, i) => ({ kind: "code" as const, text, twin, alwaysScored: always.has(i) })),
        seeds,
      ).map((w) => [w.index, w]),
    );
    const results = body.texts.map((text, i) => {
      const bound = bindSentence(checks, text);
      if (!bound) return { check_id: null, nearest: nearestTemplates(checks, text) };
      const exclusion = excluded.get(i);
      return {
        check_id: bound.check.id,
        already_true_in_seed: exclusion !== undefined,
        ...(exclusion ? { warning: exclusion.message } : {}),
      };
    });
    return c.json({ twin, results });
  });
