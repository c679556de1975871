// GET /v1/twins: the twins this platform serves and the one a task gets when it names none. The
// CLI reads the default here because it parses task files without loading the registry.
import { Hono } from "hono";
import { DEFAULT_TWIN, TWIN_IDS, twinById } from "../../durable-objects/twins/registry";
import type { AppEnv } from "../app-env";

export const twinRoutes = new Hono<AppEnv>().get("/", (c) =>
  c.json({
    default: DEFAULT_TWIN,
    twins: TWIN_IDS.map((id) => ({ id, name: twinById(id).displayName })),
  }),
);
