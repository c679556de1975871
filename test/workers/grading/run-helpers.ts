// Helpers for the end-to-end grading tests: a sandbox the agent acted on, and finalize.
import { matchRoute } from "../../../durable-objects/dispatch";
import { twinById } from "../../../durable-objects/twins/registry";
import { api, createSandbox, octokitFor, postJson, type CreatedSandbox } from "../helpers";

export interface FinalizeAnswer {
  run_id: string;
  session_id: string;
  score: number | null;
  all_skipped: boolean;
  judge_model: string | null;
  provenance: string;
  dashboard_url: string;
  summary: string;
  fix_prompt: string | null;
  criteria_breakdown: Record<string, unknown>;
  criteria_results: {
    id: string;
    text: string;
    kind: string;
    twin: string | null;
    status: string;
    passed: boolean;
    skipped: boolean;
    reason: string;
    skip_reason: string | null;
  }[];
}

export const REQUIRED = { stop_reason: "done", exit_code: 0, duration_ms: 45_000, agent_model: "test-model" };

export type CriterionInput = { id: string; text: string; kind: "code" | "model"; twin?: string; always_scored?: boolean };

export const code = (id: string, text: string, extra: Partial<CriterionInput> = {}): CriterionInput => ({
  id,
  text,
  kind: "code",
  ...extra,
});

export function finalize(
  sessionId: string,
  criteria: CriterionInput[],
  extra: Record<string, unknown> = {},
  init: RequestInit & { key?: string | null } = {},
) {
  return postJson(`/v1/sandboxes/${sessionId}/finalize`, { ...REQUIRED, criteria, ...extra }, init);
}

export async function finalizeOk(
  sessionId: string,
  criteria: CriterionInput[],
  extra: Record<string, unknown> = {},
): Promise<FinalizeAnswer> {
  const res = await finalize(sessionId, criteria, extra);
  if (res.status !== 200) throw new Error(`finalize: ${res.status} ${await res.text()}`);
  return res.json<FinalizeAnswer>();
}

/** A default-world GitHub sandbox where the agent labelled and commented on issue #1. */
export async function triagedSandbox(body: Record<string, unknown> = {}): Promise<CreatedSandbox> {
  const sandbox = await createSandbox(body);
  const gh = octokitFor(sandbox);
  await gh.issues.addLabels({ owner: "acme", repo: "api", issue_number: 1, labels: ["bug"] });
  await gh.issues.createComment({ owner: "acme", repo: "api", issue_number: 1, body: "Triaged: this is a bug in the timeout handling." });
  return sandbox;
}

export const getJson = async <T>(path: string, key?: string): Promise<{ status: number; body: T; headers: Headers }> => {
  const res = await api(path, { key });
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
};

/** Whether the GitHub twin implements a route yet: tests of agent mutations need its write routes. */
export const twinServes = (method: string, path: string) => matchRoute(twinById("github"), method, path) !== undefined;
