// MCP tools: one typed tool per Stripe operation, arguments in Stripe's own parameter names
// (which models already know from Stripe's docs). Each is derived from its route's declaration
// (declare.ts, routes/*.ts) by the kit's `toolsOf`: the same parameters, types and descriptions
// the REST route reads, mapped onto that one call, which runs through the same dispatch and
// idempotency rules; amounts are in the minor unit. Every Stripe tool fronts exactly one route,
// so there are no hand-written extra tools.
import { encodeForm } from "../kit/form";
import { toolsOf } from "../kit/route";
import type { TwinTool } from "../types";
import { stripeRoutes } from "./routes";

/**
 * A GET's or DELETE's nested arguments (`created: { gte }`, `expand: [...]`) sent in the query the
 * way Stripe reads them, bracket-encoded (`created[gte]=…`, `expand[0]=…`), where the kit's
 * derivation would join a list with commas.
 */
export function withBracketQuery(tool: TwinTool): TwinTool {
  return {
    ...tool,
    toRequest(raw) {
      const request = tool.toRequest(raw);
      if (!request.query) return request;
      const args = tool.input.parse(raw) as Record<string, unknown>;
      const query: Record<string, string | readonly string[]> = {};
      for (const [key, value] of Object.entries(request.query)) {
        const arg = args[key];
        if (typeof arg !== "object" || arg === null) {
          query[key] = value;
          continue;
        }
        for (const [name, inner] of new URLSearchParams(encodeForm({ [key]: arg }))) query[name] = inner;
      }
      return { ...request, query };
    },
  };
}

export const stripeTools: readonly TwinTool[] = toolsOf(stripeRoutes).map(withBracketQuery);

/** Routes without a tool of their own, and why. */
export const stripeUntooled: Readonly<Record<string, string>> = {
  "charges.listRefunds": "the same list as list_refunds with its charge argument",
  "invoices.retrieveUpcoming": "the older API's form of preview_invoice (GET /v1/invoices/upcoming, for older clients)",
  "invoices.listUpcomingLines": "the lines of preview_invoice's answer, as the older API listed them",
};
