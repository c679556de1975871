// Seeds on the control plane: the envelope rule (decided by `twins`, never by the seed's
// contents) and the twin's own boot parser, shared by /v1/seeds/validate and sandbox creation.
import { formatPath } from "../durable-objects/twins/kit/seed";
import { normalizeSeed } from "../durable-objects/twins/normalize";
import { TWINS, TWIN_IDS, isTwinId } from "../durable-objects/twins/registry";
import type { TwinId } from "../durable-objects/twins/registry";
import { ApiError } from "./errors";

export function checkTwinIds(value: unknown, opts: { max?: number }): TwinId[] {
  const list = value as unknown[];
  const unknown = list.filter((t) => !isTwinId(t));
  if (unknown.length) {
    throw new ApiError(
      "validation_failed",
      `Unknown twin${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}. Known twins: ${TWIN_IDS.join(", ")}`,
      {
        error: "unknown_twins",
        unknown_twins: unknown,
        known_twins: TWIN_IDS,
        issues: unknown.map((t) => ({ path: `twins[${list.indexOf(t)}]`, message: `Unknown twin ${JSON.stringify(t)}` })),
      },
    );
  }
  const twins = [...new Set(list.filter(isTwinId))];
  if (opts.max !== undefined && twins.length > opts.max) {
    throw new ApiError("validation_failed", `twins: a sandbox holds at most ${opts.max} twins; ${twins.length} were requested`, {
      error: "too_many_twins",
      max: opts.max,
      requested: twins.length,
      issues: [{ path: "twins", message: `At most ${opts.max} twins` }],
    });
  }
  return twins;
}

export interface ResolvedSeeds {
  /** Parsed (normalized) seeds per twin; a twin not present boots its default world. */
  seeds: Partial<Record<TwinId, unknown>>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * Splits the wire seed per twin and normalizes each (the twin's parser and its asynchronous
 * completion; dates the sandbox clock decides are left to boot); throws the 422 the reference describes.
 */
export async function resolveSeeds(twins: TwinId[], seed: unknown): Promise<ResolvedSeeds> {
  const perTwin: Partial<Record<TwinId, unknown>> = {};
  if (seed !== undefined && seed !== null) {
    if (!isPlainObject(seed))
      throw envelopeError("seed: the seed must be a JSON object", { issues: [{ path: "seed", message: "Expected a JSON object" }] });
    requireSafeSeed(seed);
    if (twins.length === 1) {
      perTwin[twins[0]] = seed;
    } else {
      const strangers = Object.keys(seed).filter((k) => !twins.includes(k as TwinId));
      if (strangers.length) {
        throw envelopeError(
          `With several twins the seed is an envelope keyed by twin id; ${strangers.map((s) => `"${s}"`).join(", ")} ${strangers.length > 1 ? "are not twins" : "is not a twin"} of this request (${twins.join(", ")})`,
          { keys: strangers },
        );
      }
      for (const twin of twins) if (seed[twin] !== undefined) perTwin[twin] = seed[twin];
    }
  }
  const seeds: Partial<Record<TwinId, unknown>> = {};
  for (const twin of twins) {
    const definition = TWINS[twin];
    if (perTwin[twin] === undefined) continue;
    const result = await normalizeSeed<unknown>(definition, perTwin[twin]);
    if (!result.ok) {
      const first = result.issues[0];
      throw new ApiError("validation_failed", `Seed is not valid for the ${twin} twin: ${first.path || "(root)"} — ${first.message}`, {
        error: "invalid_seed",
        twin,
        issue_count: result.issues.length,
        issues: result.issues,
      });
    }
    seeds[twin] = result.seed;
  }
  return { seeds };
}

/** Deeper than this a seed is refused: no world nests so far, and a structured clone would not carry it. */
const MAX_SEED_DEPTH = 48;

/**
 * One rule for every seed on every door (validate and create run it through resolveSeeds):
 * no `__proto__` key, which a parser would silently drop or turn into a prototype, and no
 * nesting deeper than MAX_SEED_DEPTH. The walk recurses, but never below MAX_SEED_DEPTH + 1
 * frames, so depth itself cannot overflow it; it keeps one path, pushed and popped, because a
 * path copied for every node of a 10,000-issue seed was most of its cost (and garbage).
 */
function requireSafeSeed(seed: Record<string, unknown>): void {
  const path: (string | number)[] = [];
  const visit = (value: unknown): void => {
    if (path.length > MAX_SEED_DEPTH) throw seedRuleError(path, `The seed nests deeper than ${MAX_SEED_DEPTH} levels`, "too_deep");
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        visit(value[i]);
        path.pop();
      }
    } else if (value && typeof value === "object") {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      // Its own keys first: a forbidden key is named even when something below it breaks a rule too.
      if (keys.includes("__proto__"))
        throw seedRuleError([...path, "__proto__"], 'A seed may not use the key "__proto__"', "forbidden_key");
      for (const key of keys) {
        path.push(key);
        visit(record[key]);
        path.pop();
      }
    }
  };
  visit(seed);
}

const seedRuleError = (path: (string | number)[], message: string, code: string) => {
  const at = formatPath(path) || "(root)";
  return new ApiError("validation_failed", `${at}: ${message}`, {
    error: "invalid_seed",
    issue_count: 1,
    issues: [{ path: at, message, code }],
  });
};

const envelopeError = (message: string, extra: Record<string, unknown> = {}) =>
  new ApiError("validation_failed", message, { error: "invalid_seed_envelope", ...extra });
