// The router Worker: the control plane under /v1, the twins under /<twin>/s/<ses_id>/ and at
// their providers' own root paths, all from one origin.
import { type Context, Hono } from "hono";
import { BENCH_FLOOR_BODY, Sandbox } from "../durable-objects/Sandbox";
import { TWINS, TWIN_IDS } from "../durable-objects/twins/registry";
import type { AppEnv } from "./app-env";
import { requireTeamKey } from "./auth";
import { UNREAD_DISCARD_BYTES, discardBody } from "./body";
import { bearerFrom, looksLikeProviderToken } from "./credentials";
import { ApiError, errorResponse, requestIdOf } from "./errors";
import { controlMcpHandler } from "./mcp/control";
import { twinMcpHandler } from "./mcp/twin";
import { adminRoutes } from "./routes/admin";
import { appRoutes } from "./routes/app";
import { agentRoutes } from "./routes/agents";
import { meRoutes } from "./routes/me";
import { sandboxRoutes } from "./routes/sandboxes";
import { seedRoutes } from "./routes/seeds";
import { taskRoutes } from "./routes/tasks";
import { twinRoutes } from "./routes/twins";
import { blobFileRoutes, blobUploadRoutes } from "./routes/blobs";
import { checkRoutes } from "./routes/checks";
import { finalizeRoutes } from "./routes/finalize";
import { runRoutes } from "./routes/runs";
import { groupRoutes, runSetRoutes } from "./routes/groups";
import { BLOB_PATH_PREFIX } from "./blobs/sign";
import { settingsOf } from "./settings";
import { sandboxStub } from "./stubs";
import { requestUrl } from "./urls";
import { prefixedTwinHandler, rootCredential, rootMissingCredential, rootTwinHandler, rootUnauthorized, toResponse } from "./twin-proxy";

export { Sandbox };
// An asynchronous finalize runs as this Workflow, beside the Sandbox rather than in its alarm.
export { FinalizeWorkflow } from "./finalize/finalize-job";

/** What every request meets, on either app below: its settings, a body left unread dropped, errors answered. */
function withCommonHandling(app: Hono<AppEnv>): Hono<AppEnv> {
  app.use(async (c, next) => {
    c.set("settings", settingsOf(c.env));
    await next();
    // A body no route read (a refusal before it got there, a 404) is read and dropped before the
    // answer leaves, so a client still sending hears the answer instead of a broken pipe.
    await discardBody(c.req.raw, UNREAD_DISCARD_BYTES);
  });
  app.onError((err, c) => {
    const requestId = requestIdOf(c);
    if (err instanceof ApiError) return errorResponse(err, requestId);
    console.error("unhandled error", requestId, err);
    return errorResponse(new ApiError("internal_error", "Something went wrong on our side; the request id identifies it"), requestId);
  });
  return app;
}

/** The twins under `/<twin>/s/<ses_id>/`: their MCP servers and every call through a client. */
function withTwinPaths(app: Hono<AppEnv>): Hono<AppEnv> {
  app.all("/:twin/s/:sid/mcp", twinMcpHandler);
  // The vendor's own MCP server's tool set, for a twin that declares one (TwinDefinition.officialTools).
  app.all("/:twin/s/:sid/mcp/official", twinMcpHandler);
  app.all("/:twin/s/:sid", prefixedTwinHandler);
  app.all("/:twin/s/:sid/*", prefixedTwinHandler);
  return app;
}

const app = withCommonHandling(new Hono<AppEnv>());

// `/v1/…` with a provider-shaped key is that provider's API (a vendor whose own paths start with /v1).
// Only a path the key's own twin claims goes there: `/v1/me` with another vendor's token is a
// control-plane call with a key it does not know (401), not a twin call.
app.use("/v1/*", async (c, next) => {
  const token = bearerFrom(c.req.header("authorization"));
  const path = requestUrl(c).pathname;
  if (
    token &&
    looksLikeProviderToken(token) &&
    Object.values(TWINS).some((t) => token.startsWith(t.credential.prefix) && t.claimsRootPath(path))
  ) {
    const res = await rootTwinHandler(c, token);
    // A key of that vendor's shape that opens no sandbox is refused as the vendor would refuse it.
    return res ?? rootUnauthorized(path);
  }
  await next();
  c.header("x-request-id", requestIdOf(c));
});

app.route("/v1/admin", adminRoutes);

const controlPlane = new Hono<AppEnv>()
  .use(requireTeamKey)
  .route("/", meRoutes)
  .route("/", seedRoutes)
  .route("/sandboxes", sandboxRoutes)
  .route("/tasks", taskRoutes)
  .route("/twins", twinRoutes)
  .route("/agents", agentRoutes)
  // Grading: the check vocabulary, finalize and its evaluation, evidence uploads, runs.
  .route("/checks", checkRoutes)
  .route("/runs", runRoutes)
  // Reliability: trial groups, implicit run-sets, baseline-vs-rerun comparisons.
  .route("/groups", groupRoutes)
  .route("/run-sets", runSetRoutes)
  .route("/sandboxes", finalizeRoutes)
  .route("/sessions", finalizeRoutes)
  .route("/sandboxes", blobUploadRoutes)
  .route("/sessions", blobUploadRoutes)
  // `sessions` is the wire name of a sandbox; both spellings stay valid for good.
  .route("/sessions", sandboxRoutes);
app.route("/v1", controlPlane);

app.all("/v1/*", (c) => {
  throw new ApiError("not_found", `No route for ${c.req.method} ${requestUrl(c).pathname}`);
});

// The page a run's dashboard_url opens.
app.route("/app", appRoutes);

// The benchmark floor: router → Durable Object → a fixed small body, and the same body from the
// router alone, so the bench can tell the runtime's own round trip from the Durable Object's hop.
// Both are off unless enabled.
const requireBenchFloor = (c: Context<AppEnv>) => {
  if (!c.get("settings").benchFloorEnabled) throw new ApiError("not_found", "The benchmark floor is disabled");
};
app.get("/_bench/floor/:sid", async (c) => {
  requireBenchFloor(c);
  return toResponse(await sandboxStub(c.env, c.req.param("sid")).benchFloor());
});
app.get("/_bench/router", (c) => {
  requireBenchFloor(c);
  return toResponse(BENCH_FLOOR_BODY);
});

// Signed evidence downloads and uploads: the URL's signature is the credential, so not under /v1.
app.route(BLOB_PATH_PREFIX, blobFileRoutes);

// MCP: the control server for coaches, and one server per twin per sandbox for examinees.
app.all("/mcp", (c) => controlMcpHandler(c, app));
withTwinPaths(app);

// Anything else is a provider path on the root, routed by its credential.
app.all("*", async (c) => {
  const path = requestUrl(c).pathname;
  const token = await rootCredential(c, path);
  if (token && !token.startsWith("pme_")) {
    const res = await rootTwinHandler(c, token);
    if (res) return res;
    return rootUnauthorized(path);
  }
  const missing = token ? null : rootMissingCredential(path);
  if (missing) return missing;
  throw new ApiError("not_found", "No route here: the control plane is under /v1; twins are under /<twin>/s/<session_id>/");
});

/**
 * Twin calls, nearly every request, skip the whole router's matching: with every control-plane
 * route in one tree, finding the route cost about a twentieth of a twin call's CPU (a profile of
 * the concurrency workload). The same handlers answer either way.
 */
const twinApp = withTwinPaths(withCommonHandling(new Hono<AppEnv>()));
const TWIN_PATH = new RegExp(`^/(?:${TWIN_IDS.join("|")})/s/[^/]+(?:/|$)`);

/** The pathname of a request's URL without parsing it: the part after the authority, before `?`. */
function pathnameOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
}

export default {
  fetch: (request: Request, env: AppEnv["Bindings"], ctx: ExecutionContext) =>
    (TWIN_PATH.test(pathnameOf(request.url)) ? twinApp : app).fetch(request, env, ctx),
} satisfies ExportedHandler<AppEnv["Bindings"]>;
