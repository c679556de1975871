// The generated fidelity reports the Worker serves (GET /v1/twins/:id/fidelity, /app/fidelity).
// `npm run fidelity` writes each twin's fidelity.generated.ts; test/node/fidelity/tables.test.ts
// keeps them current and checks every registered twin is served.
import { FIDELITY_JSON as github } from "../../github/fidelity.generated";
import { FIDELITY_JSON as gmail } from "../../gmail/fidelity.generated";
import { FIDELITY_JSON as linear } from "../../linear/fidelity.generated";
import { FIDELITY_JSON as slack } from "../../slack/fidelity.generated";
import { FIDELITY_JSON as stripe } from "../../stripe/fidelity.generated";
import type { FidelityReport } from "./types";

const SOURCES: Record<string, string> = { github, stripe, slack, gmail, linear };
const parsed = new Map<string, FidelityReport>();

export function fidelityReport(twin: string): FidelityReport | undefined {
  if (!Object.hasOwn(SOURCES, twin)) return undefined;
  let report = parsed.get(twin);
  if (!report) {
    report = JSON.parse(SOURCES[twin]) as FidelityReport;
    parsed.set(twin, report);
  }
  return report;
}
