// The one shape every twin has. Adding a twin is a folder under twins/ and one registry line.
import type { z } from "zod";
import type { Db } from "../sql";

export const TWIN_IDS = ["github", "stripe", "slack", "gmail", "linear"] as const;
export type TwinId = (typeof TWIN_IDS)[number];
export const isTwinId = (value: unknown): value is TwinId => TWIN_IDS.includes(value as TwinId);

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
}

export interface TwinResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Clock {
  /** Milliseconds since the epoch; never goes backwards within a sandbox. */
  now(): number;
}

export interface TwinContext {
  db: Db;
  clock: Clock;
  req: TwinRequest;
  params: Record<string, string>;
  query: URLSearchParams;
  sessionId: string;
}

export interface Route {
  method: string;
  /** Express-style pattern: `/repos/:owner/:repo/issues/:issue_number`; `*path` takes the rest. */
  pattern: string;
  /** The official client's name for the call (`issues.addLabels`), written on the tape. */
  operation: string;
  summary: string;
  handler(ctx: TwinContext): TwinResponse;
}

/** One tape row, as /_pome/events serves it and grading reads it. */
export interface TapeRow {
  seq: number;
  at: string;
  twin: TwinId;
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
  toRequest(args: Record<string, unknown>): { method: string; path: string; query?: Record<string, string>; body?: unknown };
}

export type Substrate = "final" | "seed+final" | "tape";
export type SkipReason =
  | "already_true_in_seed"
  | "seed_missing"
  | "subject_redacted"
  | "field_absent"
  | "judge_unavailable";

export interface CheckParam {
  name: string;
  /** The accepted pattern, as a regular-expression source matched against the whole value. */
  pattern: string;
  example: string;
}

export interface CheckInput<State> {
  args: Record<string, string>;
  /** The world the sandbox booted with; absent when it could not be recovered. */
  initial: State | undefined;
  final: State;
  /** This twin's tape rows only. */
  tape: readonly TapeRow[];
}

export type CheckOutcome =
  | { status: "passed" | "failed"; reason: string }
  | { status: "skipped"; reason: SkipReason; detail: string };

export interface CheckDefinition<State = unknown> {
  id: string;
  template: string;
  description: string;
  substrate: Substrate;
  params: readonly CheckParam[];
  evaluate(input: CheckInput<State>): CheckOutcome;
}

export interface TwinDefinition<Seed = unknown> {
  id: TwinId;
  /** False for a twin whose issue has not landed: it boots what it is given and answers 501. */
  implemented: boolean;
  /** The same parser validates seeds on the control plane and boots the sandbox. */
  parseSeed(raw: unknown): SeedResult<Seed>;
  defaultSeed(): Seed;
  /** The twin's tables (prefixed with its id), an append-only list applied once each. */
  migrations: readonly string[];
  boot(db: Db, seed: Seed, clock: Clock): void;
  /** The world in the seed's own shape: export(boot(seed)) equals the normalized seed. */
  exportState(db: Db): Seed;
  routes: readonly Route[];
  /** Responses the platform itself needs, in the vendor's own error shape. */
  errors: {
    notImplemented(req: TwinRequest): TwinResponse;
    unauthorized(message: string): TwinResponse;
    gone(message: string): TwinResponse;
    internal(message: string): TwinResponse;
    /** A request body over the platform's stated limit, refused before anything is written. */
    tooLarge?(limitBytes: number): TwinResponse;
  };
  /** Headers the vendor sends on every response (request ids, rate limits). */
  decorate?(res: TwinResponse, seq: number): TwinResponse;
  /** How the provider-shaped credential is presented by the official client. */
  credential: { prefix: string; header: string; scheme: string };
  /** Whether a root path (credential-routed form) belongs to this twin. */
  claimsRootPath(path: string): boolean;
  tools: readonly TwinTool[];
  checks: readonly CheckDefinition<Seed>[];
}
