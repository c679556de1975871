// The Gmail twin: Gmail API v1 over the gm_ tables, as googleapis expects it.
import type { FaultRule, TwinDefinition, TwinResponse } from "../types";
import { gmailChecks } from "./checks";
import { completeGmailSeed } from "./complete";
import { faultResponse, gError, UNAUTHENTICATED_MESSAGE } from "./errors";
import { prepareGmailCall, ROOT_BATCH_PATH } from "./parse";
import { gmailRoutes } from "./routes";
import { defaultGmailSeed, generateGmailSeed, parseGmailSeed, type GmailFault, type GmailSeed } from "./seed";
import { deliverReply } from "./store/outgoing";
import { getJson } from "./store/meta";
import { GMAIL_MIGRATIONS } from "./tables";
import { gmailOfficialTools } from "./official-tools";
import { gmailTools, gmailUntooled } from "./tools";
import { bootGmail, exportGmail, prepareGmailSeed } from "./world";
import { FIDELITY_JSON } from "./fidelity.generated";

const ROOT_PREFIXES = ["/gmail/v1/", "/upload/gmail/v1/", "/batch/gmail/v1"];

// gaxios (googleapis' transport, retry on by default) retries 408, 429 and every 5xx, for
// GET, HEAD, PUT, OPTIONS and DELETE. The status decides; the method narrows it further.
const retried = (res: TwinResponse) => res.status === 408 || res.status === 429 || (res.status >= 500 && res.status < 600);

export const gmailTwin: TwinDefinition<GmailSeed> = {
  id: "gmail",
  displayName: "Gmail",
  fidelity: FIDELITY_JSON,
  routes: gmailRoutes,

  // TwinCredentials
  credential: { prefix: "ya29.", separator: ".", header: "Authorization", scheme: "Bearer" },
  secretPatterns: [/\bya29\.[A-Za-z0-9._-]{10,}/g],
  // `/batch` exactly: where Google's Python client posts a batch (see ROOT_BATCH_PATH in parse.ts).
  claimsRootPath: (path) => path === ROOT_BATCH_PATH || ROOT_PREFIXES.some((p) => path.startsWith(p)),

  // TwinWire
  // An upload's body is mail, counted in bytes (a chunk's Content-Range, a message's size) and not
  // always UTF-8 (an 8-bit part in ISO-8859-1): the platform hands it over as bytes.
  binaryBody: (path) => path.startsWith("/upload/gmail/v1/"),
  prepare: prepareGmailCall,
  tapeHeaders: ["x-goog-api-client"],
  errors: {
    // 501 would be retried by gaxios (every 5xx is), so a method the twin does not serve is
    // answered as Google's front end answers a path it does not route: 404, with a reason
    // saying what is missing. The tape still marks it `unsupported`.
    notImplemented: (req) => gError(404, `The Gmail twin does not implement ${req.method} ${req.path}`, "notImplemented"),
    unauthorized: () =>
      gError(401, UNAUTHENTICATED_MESSAGE, "authError", "global", {
        "www-authenticate": 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
      }),
    gone: (message) => gError(410, message, "failedPrecondition"),
    internal: (message) => gError(500, message, "backendError"),
    // A body past the platform's 1 MiB, which is also Google's bound for a JSON request body (a
    // `raw` message sent without an upload URI): Google's measured answer
    // (googleapis/google-api-dotnet-client#856). Upload URIs take up to 35 MB at Google; the
    // platform's bound is the same for every path, so an upload past 1 MiB meets it too.
    tooLarge: (limit) => gError(400, `Request payload size exceeds the limit: ${limit} bytes.`, "badRequest"),
    responseTooLarge: (limit) =>
      gError(400, `The response would be larger than ${limit} bytes: ask for fewer results.`, "responseTooLarge"),
  },
  clientRetries: retried,

  // TwinWorld
  parseSeed: parseGmailSeed,
  completeSeed: completeGmailSeed,
  defaultSeed: defaultGmailSeed,
  generateSeed: generateGmailSeed,
  migrations: GMAIL_MIGRATIONS,
  prepareSeed: prepareGmailSeed,
  boot: bootGmail,
  exportState: exportGmail,

  // TwinGrading
  checks: gmailChecks,

  // TwinTools
  tools: gmailTools,
  untooledOperations: gmailUntooled,
  officialTools: gmailOfficialTools,

  // TwinTimed
  deliver: (db, clock, kind, payload) => {
    if (kind === "reply") deliverReply(db, clock, payload);
  },
  faults: (db): FaultRule[] =>
    getJson<GmailFault[]>(db, "faults", []).map((f) => ({
      operation: f.operation,
      skip: f.skip,
      times: f.times,
      response: () => faultResponse(f.status, f.reason),
    })),
};
