// The GitHub twin: GitHub's REST surface over the gh_ tables, as @octokit/rest expects it.
import type { TwinDefinition, TwinRequest, TwinResponse } from "../types";
import { ghError } from "./errors";
import { githubRoutes } from "./routes";
import { ENTERPRISE_OPERATION, ENTERPRISE_PREFIX, enterpriseMount, mountedOperationOf } from "./enterprise-mount";
import { GRAPHQL_PATHS, graphqlOperationOf, graphqlReadsOnly } from "./graphql/handler";
import { GRAPHQL_OPERATION, GRAPHQL_UNTOOLED } from "./graphql/routes";
import { defaultGithubSeed, parseGithubSeed, type GithubSeed } from "./seed";
import { githubChecks } from "./checks";
import { generateGithubSeed } from "./generate";
import { githubTools } from "./tools";
import { GITHUB_MIGRATIONS } from "./tables";
import { bootGithub, exportGithub } from "./world";
import { FIDELITY_JSON } from "./fidelity.generated";
import { githubOfficialTools } from "./official-tools";
import { signGithubWebhook } from "./webhooks";
import { recordAttempt } from "./store/hooks";
import { RATE_LIMITS, rateHeaders } from "./rate-limit";

/** GitHub's REST paths, for the credential-routed root form. */
const ROOT_PREFIXES = [
  "/user",
  "/users/",
  "/repos/",
  "/repositories/",
  "/orgs/",
  "/search/",
  "/rate_limit",
  "/issues",
  "/octocat",
  "/meta",
  "/raw/",
  // GitHub Enterprise Server's paths (enterprise-mount.ts).
  `${ENTERPRISE_PREFIX}/`,
  "/api/graphql",
];

const notImplemented = (req: TwinRequest) =>
  ghError(501, `The GitHub twin does not implement ${req.method} ${req.path}`, {}, "https://docs.github.com/rest");

/** The REST routes, served under /api/v3 as well (GraphQL has its own enterprise path). */
const restRoutes = githubRoutes.filter((r) => r.operation !== GRAPHQL_OPERATION);
const mountedOperation = mountedOperationOf(restRoutes);

/**
 * GitHub's headers on every answer. A route's answer already carries its rate-limit bucket
 * (rate-limit.ts); an answer given before any route ran (a 501 for an unserved path, a seeded
 * fault) reports core with every call so far, as the core count will once a route runs.
 */
function decorate(res: TwinResponse, seq: number): TwinResponse {
  const { limit, window } = RATE_LIMITS.core;
  const used = Math.min(seq, limit);
  const rate = res.headers["x-ratelimit-resource"]
    ? {}
    : rateHeaders({ limit, used, remaining: limit - used, reset: Math.ceil((Date.now() + window) / 1000), resource: "core" });
  return {
    ...res,
    headers: {
      ...res.headers,
      "x-github-request-id": `POME:${seq.toString(16).toUpperCase().padStart(8, "0")}`,
      "x-github-media-type": "github.v3; format=json",
      "x-github-api-version-selected": "2022-11-28",
      ...rate,
    },
  };
}

export const githubTwin: TwinDefinition<GithubSeed> = {
  id: "github",
  displayName: "GitHub",
  fidelity: FIDELITY_JSON,
  routes: [...githubRoutes, ...enterpriseMount(restRoutes, notImplemented)],

  // TwinCredentials
  credential: { prefix: "github_pat_", separator: "_", header: "Authorization", scheme: "Bearer" },
  secretPatterns: [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, /\bgh[pousr]_[A-Za-z0-9]{20,}/g],
  claimsRootPath: (path) => ROOT_PREFIXES.some((p) => path === p || path.startsWith(p)),

  // TwinWire
  transportFor: (path) => (GRAPHQL_PATHS.includes(path) ? "graphql" : "rest"),
  readsOnly: graphqlReadsOnly,
  operationOf: (req) => graphqlOperationOf(req) ?? mountedOperation(req),
  tapeHeaders: ["x-github-api-version"],
  decorate,
  errors: {
    notImplemented,
    unauthorized: (message) => ghError(401, message),
    gone: (message) => ghError(410, message),
    internal: (message) => ghError(500, message),
    tooLarge: (limit) => ghError(413, `Request body too large: the GitHub twin takes bodies up to ${limit} bytes`),
    // GitHub refuses a resource too large to return with 403 (the contents API's `too_large`).
    responseTooLarge: (limit) => ghError(403, `This answer is too large to return (over ${limit} bytes): ask for a smaller page.`),
  },
  // @octokit/rest ships without the retry plugin: it never retries on its own.
  clientRetries: () => false,

  // TwinWorld
  parseSeed: parseGithubSeed,
  defaultSeed: defaultGithubSeed,
  generateSeed: generateGithubSeed,
  migrations: GITHUB_MIGRATIONS,
  boot: bootGithub,
  exportState: exportGithub,

  // TwinTimed: repository webhooks carry X-Hub-Signature-256 (webhooks.ts).
  signWebhook: (delivery) => signGithubWebhook(delivery),
  webhookAttempted: recordAttempt,

  // TwinGrading
  checks: githubChecks,

  // TwinTools
  tools: githubTools,
  officialTools: githubOfficialTools,
  untooledOperations: {
    ...GRAPHQL_UNTOOLED,
    [ENTERPRISE_OPERATION]: "The /api/v3 mount runs the route the path names, and that route's own tool covers it.",
  },
};
