// The one shape every twin has (TwinDefinition, in facets at the end of this file). Adding a twin
// is a folder under twins/ and one registry line. What a twin knows about its vendor (credential
// format, transports, kept headers, refusals) is a field here, so the platform's own files name no
// vendor. This file imports no twin and no registry: twins implement it.
import type { z } from "zod";
import type { EgressVerdict } from "../egress";
import type { Db } from "../sql";

/**
 * The platform's types a twin handles (its storage, an egress verdict), offered through the
 * contract so a twin's files need import nothing of the platform but this file and the kit.
 */
export type { Db, SqlValue } from "../sql";
export type { EgressVerdict } from "../egress";

/** One failing field of a seed, with the path written the way users write it: `repositories[0].name`. */
export interface SeedIssue {
  path: string;
  message: string;
  code: string;
}
export type SeedResult<Seed> = { ok: true; seed: Seed } | { ok: false; issues: SeedIssue[] };

export type Transport = "rest" | "graphql" | "mcp";

/** A call as the twin sees it: its own path (no sandbox prefix), the raw body, lower-case headers. */
export interface TwinRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
  /** Absolute URL the twin's own paths hang under, without a trailing slash. */
  baseUrl: string;
  transport: Transport;
  /** What the twin's `prepare` hook read from the call ahead of it (e.g. parsed MIME); never taped. */
  prepared?: unknown;
  /** `base64` when `body` holds the request's bytes base64-encoded (a path the twin declares binary). */
  bodyEncoding?: "base64";
}

export interface TwinResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /**
   * For a twin whose one route serves many operations (GraphQL): the operation the tape records
   * instead of the route's, and whether it is one the twin does not implement (taped unsupported).
   */
  operation?: string;
  unsupported?: boolean;
  /** `base64` when `body` is bytes, base64-encoded (a file download); the router sends the bytes. */
  bodyEncoding?: "base64";
}

export interface Clock {
  /** Milliseconds since the epoch; never goes backwards within a sandbox. */
  now(): number;
}

/** When a scheduled delivery fires: before the N-th taped call after the one that scheduled it, or S seconds later. */
export type After = { calls: number } | { seconds: number };

export interface TwinContext {
  db: Db;
  clock: Clock;
  req: TwinRequest;
  params: Record<string, string>;
  query: URLSearchParams;
  sessionId: string;
  /** This call's place on the tape: 1 for a sandbox's first call. */
  seq: number;
  /**
   * Schedules timed behaviour (a seeded person's reply, a correspondent's answer) on the
   * platform's one mechanism. It fires through the twin's `deliver`, just before the call it is
   * due at is served; a delivery is not a call (no tape row, that call stays `mutated: false`).
   * `{ calls: 0 }` delivers at the end of this very call.
   */
  schedule(kind: string, payload: unknown, after: After): void;
  /**
   * Queues a webhook POST to an endpoint the world registered. The platform sends it once the
   * call's transaction has committed (never for a refused call), signing it at send time through
   * the twin's `signWebhook`, and retries a failed delivery on later calls.
   */
  webhook(delivery: WebhookDelivery): void;
  /**
   * Whether the platform's egress policy lets deliveries go to `url` (the `EGRESS` setting, the
   * platform's own origins, this call's among them). A twin asks it when an endpoint is registered
   * and refuses a URL it refuses, in the vendor's shape; a queued delivery is checked again anyway.
   */
  egress(url: string): EgressVerdict;
  /**
   * Runs `work` as a nested transaction: if it throws, its writes are undone and the call's own
   * stand. For a twin that serves several calls within one (a batch endpoint), so each inner
   * refusal changes nothing, as a refused call changes nothing. Absent outside a Sandbox.
   */
  savepoint?<T>(work: () => T): T;
  /**
   * The seeded fault a call of `operation` inside this one meets, counted with the calls that come
   * over the wire (a batch endpoint's inner calls), so a fault's `skip` and `times` run over both
   * alike; counting is the only write. Undefined when no fault is due.
   */
  fault(operation: string, req: TwinRequest): TwinResponse | undefined;
}

/** One attempt to send a queued webhook, as the platform tells the twin that queued it. */
export interface WebhookAttempt {
  /** The delivery's own headers, as queued (without the signatures): they name the delivery. */
  headers: Readonly<Record<string, string>>;
  /** The receiver's HTTP status; 0 when none answered (refused, unreachable, timed out). */
  status: number;
  /** The receiver's answer headers, lower-cased; empty when none answered. */
  responseHeaders: Readonly<Record<string, string>>;
  /** How long the attempt took, in milliseconds, and when it ended (ms since the epoch). */
  durationMs: number;
  at: number;
  /** Why no status came back, when none did. */
  error?: string;
}

export interface WebhookDelivery {
  url: string;
  /** The exact body sent (the signature covers these bytes). */
  body: string;
  headers?: Record<string, string>;
  /** The endpoint's signing secret, handed to `signWebhook`; never taped. */
  secret?: string;
}

/** A seeded fault: calls of `operation` are counted; the first `skip` pass, the next `times` get `response`. */
export interface FaultRule {
  operation: string;
  skip: number;
  times: number;
  /** The vendor-shaped refusal; answering it changes nothing. */
  response(req: TwinRequest): TwinResponse;
}

export interface Route {
  method: string;
  /** Express-style pattern: `/repos/:owner/:repo/issues/:issue_number`; `*path` takes the rest. */
  pattern: string;
  /** The official client's name for the call (`issues.addLabels`), written on the tape. */
  operation: string;
  summary: string;
  handler(ctx: TwinContext): TwinResponse;
  /**
   * The route's inputs, declared once (`kit/route.ts`): the handler's typed input, its MCP tool
   * and its OpenAPI entry all come from it.
   */
  declaration?: RouteDeclaration;
}

/** A route's inputs as zod schemas, and the MCP tool it stands behind if any. */
export interface RouteDeclaration {
  params: z.ZodObject;
  query: z.ZodObject;
  body?: z.ZodType;
  /** How a body without a JSON content type is read. */
  bodyEncoding: "json" | "form";
  tool?: { name: string; description: string; readOnly: boolean; destructive: boolean };
}

/** One tape row, as /_pome/events serves it and grading reads it. */
export interface TapeRow {
  seq: number;
  at: string;
  /** The twin's id (the registry's key; the contract names no twin). */
  twin: string;
  transport: Transport;
  method: string;
  path: string;
  query: string;
  request_headers: Record<string, string>;
  request_body: unknown;
  status: number;
  response_body: unknown;
  mutated: boolean;
  fidelity: "supported" | "unsupported";
  operation: string;
}

/** An MCP tool: a typed front for one of the twin's REST operations, run through the same dispatch. */
export interface TwinTool {
  name: string;
  description: string;
  input: z.ZodObject<z.ZodRawShape>;
  readOnly: boolean;
  destructive: boolean;
  /** A query parameter given a list is repeated, as official clients send a list (`labelIds=A&labelIds=B`). */
  toRequest(args: Record<string, unknown>): {
    method: string;
    path: string;
    query?: Record<string, string | readonly string[]>;
    body?: unknown;
  };
}

/** One API call a tool makes, as the twin's dispatch takes it (path from the twin's root). */
export type ToolCall = ReturnType<TwinTool["toRequest"]>;

/**
 * A tool of the vendor's own MCP server, with its name, description, input schema and
 * annotations exactly as the vendor publishes them, and how the twin carries it out: one or
 * more API calls through `call` (each taped like any MCP call), then the tool's text result.
 */
export interface OfficialTool {
  name: string;
  description: string;
  /** The vendor's JSON Schema for the arguments, enforced on every call. */
  inputSchema: Record<string, unknown>;
  /** The whole definition as published (annotations, icons, extension data…): what tools/list serves. */
  published: Record<string, unknown>;
  run(args: OfficialToolArgs, call: OfficialToolCaller): Promise<OfficialToolResult>;
}

/** An official tool's arguments, as the SDK validated them against the published schema. */
export type OfficialToolArgs = Record<string, unknown>;
/** How an official tool makes its API calls: each one dispatched and taped like any MCP call. */
export type OfficialToolCaller = (req: ToolCall) => Promise<TwinResponse>;
/** An official tool's answer: one text, marked when it is the tool's error. */
export interface OfficialToolResult {
  text: string;
  isError: boolean;
}
export type OfficialToolRun = OfficialTool["run"];

/** The vendor's own MCP tool set, with where it was taken from. */
export interface OfficialToolSet {
  /** Repository, path, version and license of the published definitions. */
  source: string;
  tools: readonly OfficialTool[];
  /** Published tools the twin has no run for: listed nowhere, and kept empty by the contract suite. */
  unrun: readonly string[];
}

export type Substrate = "final" | "seed+final" | "tape";
export type SkipReason = "already_true_in_seed" | "seed_missing" | "subject_redacted" | "field_absent" | "judge_unavailable";

export interface CheckParam {
  name: string;
  /** The accepted pattern, as a regular-expression source matched against the whole value. */
  pattern: string;
  example: string;
  /**
   * What the value names when it is a subject agents cannot create through the vendor's API (a
   * repository, a person): a criterion naming one the seed lacks can only fail, and that failure
   * is the task's. Such subjects are read from the seed's `repositories` and `users`.
   */
  subject?: "repository" | "user";
}

export interface CheckInput<State> {
  args: Record<string, string>;
  /** The world the sandbox booted with; absent when it could not be recovered. */
  initial: State | undefined;
  final: State;
  /** This twin's tape rows only. */
  tape: readonly TapeRow[];
}

export type CheckOutcome = { status: "passed" | "failed"; reason: string } | { status: "skipped"; reason: SkipReason; detail: string };

export interface CheckDefinition<State = unknown> {
  id: string;
  template: string;
  description: string;
  substrate: Substrate;
  params: readonly CheckParam[];
  evaluate(input: CheckInput<State>): CheckOutcome;
}

/**
 * The provider-shaped credential the official client sends: `<prefix><session body><separator><signature>`,
 * presented in `header` as `<scheme> <token>` (an empty scheme sends the bare token).
 */
export interface CredentialFormat {
  prefix: string;
  separator: string;
  header: string;
  scheme: string;
  /**
   * The prefix of a second, user-level credential of the same sandbox (an OAuth user token beside
   * a bot token), handed out as `user_token`. The twin tells the two apart by their prefixes.
   */
  userPrefix?: string;
}

/**
 * What a twin is, read as six facets, each one question the platform asks of it:
 *
 * - {@link TwinCredentials}: who may call it, and how the router finds it from a bare credential;
 * - {@link TwinWire}: how a call is read and served, and how the vendor answers and refuses;
 * - {@link TwinWorld}: its seed, tables, boot and export;
 * - {@link TwinGrading}: the checks a task's criteria bind to;
 * - {@link TwinTools}: its MCP tools;
 * - {@link TwinTimed}: what happens between calls (scheduled deliveries, webhooks, seeded faults).
 *
 * A consumer takes the narrowest facet it reads (`normalizeSeed` takes a `TwinWorld`); the
 * definition is all of them plus its identity, so `twin.routes` and `twin.errors` read as before.
 */
export interface TwinDefinition<Seed = unknown>
  extends TwinCredentials,
    TwinWire,
    TwinWorld<Seed>,
    TwinGrading<Seed>,
    TwinTools,
    TwinTimed {
  /** Its key in the registry, and the first segment of its URLs. */
  id: string;
  /** The vendor's name as people write it, for reasons and pages. */
  displayName: string;
  /**
   * The twin's fidelity report as JSON text, measured against its vendor's published description
   * (`npm run fidelity` writes it to the twin's fidelity.generated.ts); served at
   * GET /v1/twins/:id/fidelity and on the dashboard.
   */
  fidelity: string;
  /** The vendor's surface: the routes a call is matched against (twins/router.ts); one none matches gets `errors.notImplemented`. */
  routes: readonly Route[];
}

/**
 * Who may call the twin and how a call finds it: the provider-shaped credential the official client
 * presents, the tokens the twin issues itself, the paths it authenticates on its own, and which
 * root paths (the credential-routed form, no sandbox prefix) are the twin's.
 */
export interface TwinCredentials {
  /** How the provider-shaped credential is presented by the official client. */
  credential: CredentialFormat;
  /**
   * Prefix of access tokens the twin itself issues (OAuth). Such a token carries the sandbox's
   * 16-character session body right after the prefix: the router forwards it to that sandbox,
   * and the twin checks it against its own world (unknown or revoked tokens get its 401).
   */
  issuedTokenPrefix?: string;
  /**
   * Paths of the twin that carry no sandbox credential because the twin authenticates them itself
   * (an OAuth token exchange presents the client's secret); the prefixed form forwards them unchecked.
   */
  publicPaths?: readonly string[];
  /**
   * A query parameter or form/JSON body field that may carry the credential instead of the
   * header (read only when the header is absent), for a vendor that accepts it there.
   */
  credentialField?: string;
  /**
   * The vendor's secret shapes (its keys and tokens, global regular expressions). The registry
   * binds every twin's into the platform's redaction (`durable-objects/redact.ts`), which keeps
   * them off the tape, stored states, logs and blobs.
   */
  secretPatterns: readonly RegExp[];
  /** Whether a root path (credential-routed form) belongs to this twin. */
  claimsRootPath(path: string): boolean;
}

/**
 * How a call is read, served and answered on the wire: its transport and body, which calls only
 * read, which operation the tape names, the headers kept and sent, and the vendor's own answers
 * to what the platform refuses, with whether its official client would retry them.
 */
export interface TwinWire {
  /** The transport of a call on one of the twin's own paths; REST unless the twin says otherwise. */
  transportFor?(path: string): Transport;
  /**
   * Whether the request body on this path is bytes (a file upload): the platform then hands it to
   * the twin base64-encoded (`TwinRequest.bodyEncoding`) instead of decoding it as UTF-8.
   */
  binaryBody?(path: string): boolean;
  /**
   * Asynchronous work a call needs before its synchronous transaction (parsing MIME with a
   * promise-based library): returns the request with `prepared` set. It may read the world through
   * `world` (what an earlier call left for it to finish: an upload's earlier chunks) and must not
   * write it; the handler checks again, in its transaction, that what it read still holds.
   */
  prepare?(req: TwinRequest, world: WorldReader): Promise<TwinRequest>;
  /**
   * Whether a call only reads the world: GET and HEAD unless the twin says otherwise (a GraphQL
   * query does; undefined leaves it to the method). Such a call is first served without a
   * transaction, which costs a point read about a tenth of its time. A wrong "yes" costs time,
   * never a write: a statement that may write is refused before it runs and the call is served
   * again inside a transaction, so a handler must not change memory before a write it may be
   * refused (as it must not before one a rolled-back transaction undoes).
   */
  readsOnly?(req: TwinRequest): boolean | undefined;
  /**
   * For a twin whose one route serves many operations (GraphQL): which operation a call is, read
   * from the request, so seeded faults can target it (`issueCreate`) rather than the route.
   */
  operationOf?(req: TwinRequest): string | undefined;
  /** Request headers of the vendor's worth keeping on the tape (lower case), beside the platform's own. */
  tapeHeaders: readonly string[];
  /** Headers the vendor sends on every response (request ids, rate limits). */
  decorate?(res: TwinResponse, seq: number): TwinResponse;
  /** Responses the platform itself needs, in the vendor's own error shape. */
  errors: TwinErrors;
  /**
   * Whether the vendor's official client would retry this answer on its own. The contract proves
   * the platform's refusals (501, 401, 410) are never retried, so an agent is not stuck in a loop.
   */
  clientRetries(res: TwinResponse): boolean;
  /**
   * Whether a refusal's writes stand. By default a call answered >= 400 changes nothing; a vendor
   * whose refusals still record what happened (a declined payment that still records the failed
   * attempt and its events) says which answers keep their writes.
   */
  keepsWrites?(res: TwinResponse): boolean;
}

/** What `prepare` may read of the world: SELECT statements only (any other throws before it runs). */
export interface WorldReader {
  all<T>(query: string, ...params: (string | number | null)[]): T[];
}

/** The platform's refusals, each as the vendor words it (status, body, headers). */
export interface TwinErrors {
  /**
   * The answer to a call no route matches. Its `operation`, when set, is the vendor operation
   * the call asked for (a method named in the path, say), taped instead of `unsupported`.
   */
  notImplemented(req: TwinRequest): TwinResponse;
  unauthorized(message: string): TwinResponse;
  /**
   * The refusal of a call that brought no credential at all, for a vendor that words it apart
   * from a bad one; `unauthorized` answers both when absent. Never used under `/_pome/`.
   */
  missingCredential?(message: string): TwinResponse;
  gone(message: string): TwinResponse;
  internal(message: string): TwinResponse;
  /** A request body over the platform's stated limit, refused before anything is written. */
  tooLarge?(limitBytes: number): TwinResponse;
  /**
   * An answer over the platform's response bound (kit/response-bounds.ts), refused instead of
   * sent or taped (a 4xx, or the vendor's refusal at 200 for a vendor whose client retries
   * everything else, so the call's writes are rolled back).
   */
  responseTooLarge(limitBytes: number): TwinResponse;
}

/**
 * The twin's world: how a seed is read and completed, the tables it lives in, and the two
 * directions between them (`exportState(boot(seed))` equals the normalized seed).
 */
export interface TwinWorld<Seed = unknown> {
  /**
   * The same parser validates seeds on the control plane and boots the sandbox. A twin with
   * `completeSeed` finishes normalizing there: call normalizeSeed (twins/normalize.ts) for both.
   */
  parseSeed(raw: unknown): SeedResult<Seed>;
  /**
   * The asynchronous rest of normalizing a seed, after `parseSeed` (reading mail with a
   * promise-based MIME parser, say). The normalized seed is what this returns for what parseSeed
   * gave; it may still refuse, with paths. Given the sandbox clock (inside the sandbox, just before
   * boot) it also fills what that clock decides; without one (the control plane) it leaves that to
   * boot. Run again on its own result, it gives that result back.
   */
  completeSeed?(seed: Seed, clock?: Clock): Promise<SeedResult<Seed>>;
  defaultSeed(): Seed;
  /**
   * A valid seed with `count` of the twin's main objects (issues, customers, messages…), derived
   * deterministically: the contract round-trips it and the bench compares 10 with 10,000.
   */
  generateSeed(count: number): unknown;
  /** The twin's tables (prefixed with its id), an append-only list applied once each. */
  migrations: readonly string[];
  /** Asynchronous work a seed needs before `boot` (as `prepare` for a call): the seed handed to boot, with what it needs precomputed. */
  prepareSeed?(seed: Seed): Promise<Seed>;
  boot(db: Db, seed: Seed, clock: Clock): void;
  /** The world in the seed's own shape: export(boot(seed)) equals the normalized seed. */
  exportState(db: Db): Seed;
}

/** What grading asks of the twin: the checks a task's criteria bind to (`<twin>.<check>` ids). */
export interface TwinGrading<Seed = unknown> {
  checks: readonly CheckDefinition<Seed>[];
}

/** The twin's MCP tools: every route has one, or a written reason why not (the contract checks it). */
export interface TwinTools {
  tools: readonly TwinTool[];
  /**
   * The vendor's own MCP server's tools, served on the twin's MCP beside its per-operation tools
   * (where a name is in both, the vendor's definition is the one served), so an agent built
   * against the vendor's server works unchanged.
   */
  officialTools?: OfficialToolSet;
  /** Route operations with no MCP tool, each with the reason (the contract checks every other route has one). */
  untooledOperations?: Readonly<Record<string, string>>;
}

/**
 * What happens between calls, on the platform's timers: deliveries the twin scheduled
 * (`TwinContext.schedule`), webhooks it queued (`TwinContext.webhook`), and the faults a seed plants.
 */
export interface TwinTimed {
  /** Runs a delivery scheduled with `ctx.schedule` (see TwinContext). */
  deliver?(db: Db, clock: Clock, kind: string, payload: unknown): void;
  /** Headers that sign a webhook body (an HMAC of the body and a timestamp, say), computed when it is sent. */
  signWebhook?(delivery: { body: string; secret: string }, nowMs: number): Promise<Record<string, string>>;
  /**
   * Told how each attempt to send a webhook it queued went, so a twin that keeps a delivery log
   * (a vendor's "recent deliveries") shows what happened rather than a queued delivery forever.
   */
  webhookAttempted?(db: Db, attempt: WebhookAttempt): void;
  /**
   * The seeded faults, read from the twin's world. Only boot may write them: the platform reads
   * them once per sandbox and keeps them, with the counters.
   */
  faults?(db: Db): readonly FaultRule[];
}
