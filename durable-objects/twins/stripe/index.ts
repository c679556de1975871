// The Stripe twin: Stripe's v1 API over the st_ tables, as stripe-node 23 (API version
// 2026-10-28.endive) expects it, reached on the credential-routed root `/v1/...` with an
// `sk_test_` key or under the sandbox's prefixed api_url.
import type { TwinDefinition, TwinResponse } from "../types";
import { stripeChecks } from "./checks";
import { STRIPE_ERROR_TYPES, stripeError } from "./errors";
import { API_VERSION } from "./objects";
import { stripeRoutes } from "./routes";
import { defaultStripeSeed, generateStripeSeed, parseStripeSeed, type StripeSeed } from "./seed";
import { CARD_ERROR_STATUS } from "./call";
import { idBody } from "./store";
import { STRIPE_MIGRATIONS } from "./tables";
import { stripeTools, stripeUntooled } from "./tools";
import { stripeOfficialTools } from "./official-tools";
import { bootStripe, exportStripe, seededFaults } from "./world";
import { FIDELITY_JSON } from "./fidelity.generated";

function decorate(res: TwinResponse, seq: number): TwinResponse {
  return { ...res, headers: { ...res.headers, "request-id": `req_${idBody(`request:${seq}`, 14)}`, "stripe-version": API_VERSION } };
}

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** `Stripe-Signature: t=<unix seconds>,v1=<HMAC-SHA256 of "t.body" keyed by the endpoint secret>`. */
async function signWebhook(d: { body: string; secret: string }, nowMs: number): Promise<Record<string, string>> {
  const t = Math.floor(nowMs / 1000);
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(d.secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${t}.${d.body}`));
  return { "stripe-signature": `t=${t},v1=${hex(sig)}` };
}

export const stripeTwin: TwinDefinition<StripeSeed> = {
  id: "stripe",
  displayName: "Stripe",
  fidelity: FIDELITY_JSON,
  routes: stripeRoutes,

  // TwinCredentials
  credential: { prefix: "sk_test_", separator: "", header: "Authorization", scheme: "Bearer" },
  // API keys and webhook signing secrets.
  secretPatterns: [/\b[sr]k_(?:test|live)_[A-Za-z0-9]{10,}/g, /\bwhsec_[A-Za-z0-9]{10,}/g],
  claimsRootPath: (path) => path.startsWith("/v1/"),

  // TwinWire
  tapeHeaders: ["stripe-version", "idempotency-key"],
  decorate,
  errors: {
    notImplemented: (req) =>
      stripeError(501, "api_error", `The Stripe twin does not implement ${req.method} ${req.path}.`, { code: "not_implemented" }),
    unauthorized: (message) => stripeError(401, "invalid_request_error", message),
    gone: (message) => stripeError(410, "invalid_request_error", message),
    internal: (message) => stripeError(500, "api_error", message),
    // stripe-node throws only for an answer carrying `error` (RequestSender._jsonResponseHandler):
    // a bare 413 would reach the caller as a successful result. This one throws a StripeError with
    // statusCode 413 and rawType invalid_request_error (generateV1Error picks the class by status).
    tooLarge: (limit) => stripeError(413, "invalid_request_error", `The request body is too large: the limit is ${limit} bytes.`),
    responseTooLarge: (limit) =>
      stripeError(
        400,
        "invalid_request_error",
        `This response would be larger than ${limit} bytes: ask for a smaller page or fewer expansions.`,
      ),
  },
  // stripe-node retries 409, 429 and 5xx unless the answer says `Stripe-Should-Retry: false`
  // (and always when it says `true`); every refusal this twin writes says false.
  clientRetries: (res) => {
    const header = res.headers["stripe-should-retry"];
    if (header === "true") return true;
    if (header === "false") return false;
    return res.status === 409 || res.status === 429 || res.status >= 500;
  },
  keepsWrites: (res) => res.status === CARD_ERROR_STATUS,

  // TwinWorld
  parseSeed: parseStripeSeed,
  defaultSeed: defaultStripeSeed,
  generateSeed: generateStripeSeed,
  migrations: STRIPE_MIGRATIONS,
  boot: bootStripe,
  exportState: exportStripe,

  // TwinGrading
  checks: stripeChecks,

  // TwinTools
  tools: stripeTools,
  untooledOperations: stripeUntooled,
  officialTools: stripeOfficialTools,

  // TwinTimed
  signWebhook,
  faults: (db) =>
    seededFaults(db).map((f) => ({
      operation: String(f.operation),
      skip: Number(f.skip) || 0,
      times: Number(f.times) || 1,
      response: () =>
        stripeError(Number(f.status), STRIPE_ERROR_TYPES.find((t) => t === f.type) ?? "api_error", String(f.message), {
          code: typeof f.code === "string" ? f.code : undefined,
          param: typeof f.param === "string" ? f.param : undefined,
          decline_code: typeof f.decline_code === "string" ? f.decline_code : undefined,
        }),
    })),
};
