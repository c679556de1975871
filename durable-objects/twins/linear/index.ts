// The Linear twin: Linear's GraphQL API over the lin_ tables, as @linear/sdk expects it, plus
// OAuth for apps and signed webhooks.
import type { TwinDefinition } from "../types";
import { linearChecks } from "./checks";
import { authenticationRequired, faultBody, goneBody, internalError, notImplementedBody, responseTooLarge } from "./errors";
import { graphqlOperationOf, graphqlReadsOnly } from "./graphql";
import { OAUTH_TOKEN_PREFIX } from "./oauth";
import { linearOfficialTools } from "./official-tools";
import { worldConstants } from "./meta";
import { linearRoutes } from "./routes";
import { defaultLinearSeed, generateLinearSeed, parseLinearSeed, type LinearSeed } from "./seed";
import { LINEAR_MIGRATIONS } from "./tables";
import { linearTools, LINEAR_UNTOOLED } from "./tools";
import { signLinearWebhook } from "./webhooks";
import { bootLinear, exportLinear } from "./world";
import { FIDELITY_JSON } from "./fidelity.generated";

export const linearTwin: TwinDefinition<LinearSeed> = {
  id: "linear",
  displayName: "Linear",
  fidelity: FIDELITY_JSON,
  routes: linearRoutes,

  // TwinCredentials
  // Linear keys are sent bare in Authorization, without a scheme.
  credential: { prefix: "lin_api_", separator: "", header: "Authorization", scheme: "" },
  issuedTokenPrefix: OAUTH_TOKEN_PREFIX,
  publicPaths: ["/oauth/token", "/oauth/revoke"],
  // API keys and the OAuth access tokens this twin issues.
  secretPatterns: [/\blin_(?:api|oauth)_[A-Za-z0-9]{10,}/g],
  claimsRootPath: (path) => path === "/graphql" || path.startsWith("/oauth/"),

  // TwinWire
  transportFor: (path) => (path === "/graphql" ? "graphql" : "rest"),
  readsOnly: graphqlReadsOnly,
  operationOf: graphqlOperationOf,
  tapeHeaders: [],
  errors: {
    notImplemented: (req) => notImplementedBody(`${req.method} ${req.path}`),
    unauthorized: () => authenticationRequired(),
    gone: (message) => goneBody(message),
    internal: (message) => internalError(message),
    responseTooLarge,
  },
  // @linear/sdk has no retry logic of its own: nothing it receives is retried.
  clientRetries: () => false,

  // TwinWorld
  parseSeed: parseLinearSeed,
  defaultSeed: defaultLinearSeed,
  generateSeed: generateLinearSeed,
  migrations: LINEAR_MIGRATIONS,
  boot: bootLinear,
  exportState: exportLinear,

  // TwinGrading
  checks: linearChecks,

  // TwinTools
  tools: linearTools,
  officialTools: linearOfficialTools,
  untooledOperations: LINEAR_UNTOOLED,

  // TwinTimed
  signWebhook: (delivery) => signLinearWebhook(delivery),
  faults: (db) =>
    worldConstants(db).faults.map((r) => ({
      operation: r.operation,
      skip: r.skip,
      times: r.times,
      response: () => faultBody(r.error, Date.now()),
    })),
};
