import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { MiB, parseWith, readJson } from "../body";
import { checkTwinIds, resolveSeeds } from "../seeds";

const ValidateBody = z.strictObject({
  twins: z.array(z.string()).min(1, "twins: name at least one twin"),
  // Not z.record: it would rebuild the object and silently drop a `__proto__` key the twin must see.
  seed: z.unknown().refine((v) => v !== undefined && v !== null, "Send the world to check"),
});

export const seedRoutes = new Hono<AppEnv>().post("/seeds/validate", async (c) => {
  const body = parseWith(ValidateBody, await readJson(c, 4 * MiB));
  // Nothing is provisioned here, so there is no cap on how many twins one call checks.
  const twins = checkTwinIds(body.twins, {});
  await resolveSeeds(twins, body.seed);
  // Every twin checks its seed with its own parser: each one named is checked.
  return c.json({ valid: true, checked: twins });
});
