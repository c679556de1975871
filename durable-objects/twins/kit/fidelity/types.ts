// What a twin's fidelity table is made of. Plain data: the Worker serves the generated tables
// (GET /v1/twins/:id/fidelity, the dashboard) and Node produces them (`npm run fidelity`) from
// each twin's own fidelity.ts, which says where its vendor's description is and what it knowingly
// does differently.

/** conformant: implemented, answers validate; divergent: implemented with declared divergences; 501: not implemented. */
export type Tier = "conformant" | "divergent" | "501";

/**
 * One way a twin's answers knowingly differ from its vendor's description, with the reason.
 * `operation` is the vendor's operation id as its description names it (an OpenAPI operationId,
 * `METHOD /path`, an RPC method name, a GraphQL root field); `path` is the JSON path of the field (`/` for the body),
 * `*` matches any one segment and `**` any run of them. An `operation` of `*` covers every operation (with `status`, every
 * answer of that status): for a difference in the vendor's shared shapes, such as its error body.
 */
export interface Divergence {
  operation: string;
  status?: number;
  path: string;
  kind: "missing" | "extra" | "type" | "status" | "shape";
  reason: string;
}

export interface FidelityOperation {
  /** The vendor's id for the operation. */
  id: string;
  method: string;
  path: string;
  tier: Tier;
  /** The twin's own operation name(s) that serve it (the official client's name, as taped). */
  twinOperations: string[];
  /** Test files that call it through the official client; empty when none does yet. */
  tests: string[];
  agentRelevant: boolean;
  divergences: { path: string; kind: Divergence["kind"]; reason: string }[];
  /** For an operation answering 501: why the twin does not serve it. */
  reason?: string;
}

export interface Coverage {
  total: number;
  conformant: number;
  divergent: number;
  notImplemented: number;
  /** (conformant + divergent) / total, in percent with one decimal. */
  implementedPercent: number;
}

export interface FidelityReport {
  twin: string;
  vendor: string;
  /** The description measured against, with its version: the drift anchor. */
  description: { name: string; version: string; source: string };
  agentRelevantSource: string;
  coverage: { all: Coverage; agentRelevant: Coverage };
  operations: FidelityOperation[];
  /** Divergences declared for every operation (a shared shape such as the vendor's error body). */
  sharedDivergences: { status?: number; path: string; kind: Divergence["kind"]; reason: string }[];
  /** Twin routes that map to no vendor operation (the platform's own, or the vendor's undocumented ones). */
  unmatchedTwinOperations: string[];
  /** Which MCP tools the twin serves beside its own, whose set they are, and what of it answers 501. */
  mcp: string;
  /** How the twin answers an operation of the 501 tier: an HTTP 501, or what the vendor's client does not retry. */
  notImplementedAnswer: string;
}

export function coverageOf(ops: readonly FidelityOperation[]): Coverage {
  const conformant = ops.filter((o) => o.tier === "conformant").length;
  const divergent = ops.filter((o) => o.tier === "divergent").length;
  const total = ops.length;
  const implementedPercent = total ? Math.round(((conformant + divergent) / total) * 1000) / 10 : 0;
  return { total, conformant, divergent, notImplemented: total - conformant - divergent, implementedPercent };
}

/** What the measure reads of a twin's route (the Worker's Route has these and more). */
export interface RouteShape {
  method: string;
  pattern: string;
  operation: string;
}

/** One operation of a vendor's description. */
export interface VendorOperation {
  id: string;
  method: string;
  path: string;
}

/** A vendor's published description, reduced to its operations, with where it came from. */
export interface VendorDescription {
  name: string;
  version: string;
  source: string;
  operations: VendorOperation[];
}

/** The operations agents use, with the sources they were written down from. */
export interface AgentRelevantSet {
  source: string;
  operations: readonly string[];
}

/** Which vendor operations a twin serves, by the twin's own operation names, and its routes that match none. */
export interface ServedOperations {
  served: Map<string, Set<string>>;
  unmatched: string[];
}
