// A twin's fidelity declaration, the shape each twin folder's fidelity.ts exports (Node only: it
// reads the vendor's description from disk and checks answers with Ajv). Apart from types.ts, which
// is the plain data the Worker serves, so the Worker never reaches the Node-only checks.
import type { ConformanceTarget, Difference } from "./conformance";
import type { AgentRelevantSet, Divergence, RouteShape, ServedOperations, VendorDescription } from "./types";

/**
 * A twin's fidelity declaration (Node only: it reads the description from disk). Each twin folder
 * has one, `fidelity.ts` exporting `fidelity`; `npm run fidelity` finds them by folder.
 */
export interface TwinFidelity {
  /** Reads the vendor's published description from the repository at `root`. */
  describe(root: string): VendorDescription;
  agentRelevant: AgentRelevantSet;
  divergences: readonly Divergence[];
  /**
   * Why operations answer 501, by the start of their vendor id or path (the longest match wins), and the
   * reason for any other: every 501 in the table carries one. `answer` says how the twin answers
   * such a call when it is not an HTTP 501 (where the vendor's client would retry a 5xx, the twin
   * answers so that it does not); the tier keeps the name 501 either way.
   */
  notImplemented: { byPrefix: Readonly<Record<string, string>>; otherwise: string; answer?: string };
  /**
   * The MCP statement: the vendor's own MCP tool set the twin serves at `…/mcp/official` (or, where
   * the vendor publishes none, the most used open one, or why there is none), with its source and
   * version, beside the twin's own per-operation tools at `…/mcp`.
   */
  mcp: string;
  /** Which operations the twin serves; by default each route is matched by method and path template. */
  served?(routes: readonly RouteShape[], vendor: VendorDescription): ServedOperations;
  /**
   * How each answer the twin gives in the tests is checked against its vendor's published schema
   * (test/conformance/ runs it after every workers test). Node only.
   */
  answers(root: string): AnswerCheck;
  /** How a test file calls one of the twin's operations; by default `.<operation>(`. */
  callPattern?(twinOperation: string, vendorId: string): RegExp;
}

/**
 * How a twin's answers are checked: against the schema its vendor publishes for each operation and
 * status (OpenAPI, discovery), or, for GraphQL, against the schema for the query each answer is for.
 */
export type AnswerCheck =
  | {
      by: "schema";
      /** The vendor operation of a call (its answer and the twin's own operation name at hand) and its schema for that status; undefined where the description has none. */
      target(method: string, path: string, status: number, body: unknown, operation: string): ConformanceTarget | undefined;
      /** Why a difference is the vendor's and not the twin's (a description older than the API served), if it is. */
      explained?(difference: Difference, body: unknown): string | undefined;
    }
  | {
      by: "query";
      differences(query: string, data: unknown, operationName?: string): readonly Pick<Difference, "path" | "kind" | "message">[];
    };
