// The Slack twin: Slack's Web API over the sl_ tables, as @slack/web-api expects it. Every answer
// is HTTP 200 (`ok:false` with Slack's own code for a refusal), authentication refusals included,
// since the client retries any other status for half an hour.
import type { TwinDefinition } from "../types";
import { slackChecks } from "./checks";
import { deliverSlack } from "./deliver";
import { slackError } from "./errors";
import { slackRoutes } from "./routes";
import { defaultSlackSeed, generateSlackSeed, parseSlackSeed, type SlackSeed } from "./seed";
import { SLACK_MIGRATIONS } from "./tables";
import { slackTools } from "./tools";
import { slackOfficialTools } from "./official-tools";
import { bootSlack, exportSlack } from "./world";
import { FIDELITY_JSON } from "./fidelity.generated";

/** Slack's own root paths, for the credential-routed form on the origin. */
const ROOT_PREFIXES = ["/api/", "/upload/v1/", "/files-pri/"];

/**
 * Web API methods that only read, whatever the HTTP method (a write may come as GET too), and the
 * file download. `files.getUploadURLExternal` reserves an upload, so it is not among them.
 */
const READ_PATH =
  /^\/(?:api\/(?:[\w.]+\.(?:list|info|history|replies|get|members|conversations|getPresence|getPermalink|lookupByEmail)|auth\.test|search\.(?:messages|files|all))|files-pri\/.*)$/;

/** A Web API method name as Slack spells them (`conversations.history`, `admin.users.list`). */
const METHOD_PATH = /^\/api\/([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*){0,5})$/;

/** The method a path under `/api/` asks for, if it has a method's shape. */
export const askedMethod = (path: string): string | undefined => {
  const name = METHOD_PATH.exec(path)?.[1];
  return name !== undefined && name.length <= 100 ? name : undefined;
};

export const slackTwin: TwinDefinition<SlackSeed> = {
  id: "slack",
  displayName: "Slack",
  fidelity: FIDELITY_JSON,
  routes: slackRoutes,

  // TwinCredentials
  credential: { prefix: "xoxb-", separator: "-", header: "Authorization", scheme: "Bearer", userPrefix: "xoxp-" },
  credentialField: "token",
  secretPatterns: [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g],
  claimsRootPath: (path) => ROOT_PREFIXES.some((p) => path.startsWith(p)),

  // TwinWire
  // files.uploadV2 POSTs the file's bytes to the upload URL; v1 files.upload sends them as a multipart part.
  binaryBody: (path) => path.startsWith("/upload/v1/") || path === "/api/files.upload",
  readsOnly: (req) => READ_PATH.test(req.path),
  tapeHeaders: [],
  errors: {
    // DESIGN §5: a Slack method the twin lacks is `method_not_supported`, at HTTP 200 so no client retries it.
    // Taped under the method asked for (`/api/admin.users.list` → `admin.users.list`), so a tape
    // check can say which method the agent reached for; any other path stays `unsupported`.
    notImplemented: (req) => ({ ...slackError("method_not_supported"), operation: askedMethod(req.path) }),
    unauthorized: () => slackError("invalid_auth"),
    missingCredential: () => slackError("not_authed"),
    gone: () => slackError("account_inactive"),
    internal: () => slackError("fatal_error"),
    // At HTTP 200, as every Slack refusal: the client retries anything else.
    responseTooLarge: () => slackError("response_too_large"),
  },
  // @slack/web-api retries every answer that is not HTTP 200 (a 429 after its Retry-After).
  clientRetries: (res) => res.status !== 200,

  // TwinWorld
  parseSeed: parseSlackSeed,
  defaultSeed: defaultSlackSeed,
  generateSeed: generateSlackSeed,
  migrations: SLACK_MIGRATIONS,
  boot: bootSlack,
  exportState: exportSlack,

  // TwinGrading
  checks: slackChecks,

  // TwinTools
  tools: slackTools,
  officialTools: slackOfficialTools,

  // TwinTimed
  deliver: deliverSlack,
};
