// GET /v1/twins: the twins this platform serves and the one a task gets when it names none. The
// CLI reads the default here because it parses task files without loading the registry.
// GET /v1/twins/:id/fidelity: the twin's fidelity table, every vendor operation with its tier.
import { Hono } from "hono";
import type { FidelityReport } from "../../durable-objects/twins/kit/fidelity/types";
import { DEFAULT_TWIN, TWIN_IDS, isTwinId, twinById } from "../../durable-objects/twins/registry";
import type { AppEnv } from "../app-env";
import { ApiError } from "../errors";

const parsedReports = new Map<string, FidelityReport>();

/** A registered twin's fidelity report, parsed once per isolate; undefined for any other name. */
export function fidelityReport(id: string): FidelityReport | undefined {
  if (!isTwinId(id)) return undefined;
  let report = parsedReports.get(id);
  if (!report) {
    report = JSON.parse(twinById(id).fidelity) as FidelityReport;
    parsedReports.set(id, report);
  }
  return report;
}

export const twinRoutes = new Hono<AppEnv>()
  .get("/", (c) =>
    c.json({
      default: DEFAULT_TWIN,
      twins: TWIN_IDS.map((id) => ({ id, name: twinById(id).displayName })),
    }),
  )
  .get("/:id/fidelity", (c) => {
    const id = c.req.param("id");
    const report = fidelityReport(id);
    if (!report) throw new ApiError("not_found", "No such twin: GET /v1/twins lists them", { twin: id.slice(0, 100) });
    return c.json(report);
  });
