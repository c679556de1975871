// GET /v1/twins: the twins this platform serves and the one a task gets when it names none. The
// CLI reads the default here because it parses task files without loading the registry.
import { Hono } from "hono";
import { fidelityReport } from "../../durable-objects/twins/kit/fidelity/published";
import { DEFAULT_TWIN, TWIN_IDS, isTwinId, twinById } from "../../durable-objects/twins/registry";
import type { AppEnv } from "../app-env";
import { ApiError } from "../errors";

export const twinRoutes = new Hono<AppEnv>()
  .get("/", (c) =>
    c.json({
      default: DEFAULT_TWIN,
      twins: TWIN_IDS.map((id) => ({ id, name: twinById(id).displayName })),
    }),
  )
  // The twin's fidelity table (`npm run fidelity`): every vendor operation with its tier and the figures.
  .get("/:id/fidelity", (c) => {
    const id = c.req.param("id");
    const report = isTwinId(id) ? fidelityReport(id) : undefined;
    if (!report) throw new ApiError("not_found", "No such twin: GET /v1/twins lists them", { twin: id.slice(0, 100) });
    return c.json(report);
  });
