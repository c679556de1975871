// Normalizing a seed, the one way every door does it (seed validation, sandbox creation, task
// seeds, the sandbox before boot, the contract suite): the twin's synchronous parser, then its
// optional asynchronous completion. The platform awaits this wherever it normalizes a seed.
import type { Clock, SeedResult, TwinWorld } from "./types";

/**
 * The normalized seed, or the issues refusing it. Inside the sandbox pass its clock, so what the
 * clock decides (a date a seed left out) is filled as boot will see it; elsewhere leave it out.
 */
export async function normalizeSeed<Seed>(twin: TwinWorld<Seed>, raw: unknown, clock?: Clock): Promise<SeedResult<Seed>> {
  const parsed = twin.parseSeed(raw);
  return parsed.ok ? completeSeed(twin, parsed.seed, clock) : parsed;
}

/** Finishes an already parsed seed (one the control plane normalized, or a twin's default world). */
export async function completeSeed<Seed>(twin: TwinWorld<Seed>, seed: Seed, clock?: Clock): Promise<SeedResult<Seed>> {
  return twin.completeSeed ? twin.completeSeed(seed, clock) : { ok: true, seed };
}
