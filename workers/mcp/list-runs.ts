// list_runs: the compact rows of GET /v1/runs and, for a trial group, its reliability from
// GET /v1/groups/:id (and the comparison with its baseline), worded as the CLI words them.
import type { Comparison } from "../stats/compare";
import type { Reliability } from "../stats/reliability";
import { comparisonLines, reliabilityLines } from "../stats/text";
import { queryString, type V1 } from "./control-api";

type GroupBody = Reliability & { group_id: string; baseline_group_id: string | null; runs: unknown[] };
type CompareBody = Comparison & { group_id: string; baseline_group_id: string; baseline: Reliability; rerun: Reliability };

export async function listRuns(v1: V1, args: { group_id?: string; task_name?: string; limit?: number }) {
  const runs = await v1.json<unknown[]>("GET", `/v1/runs${queryString(args)}`);
  if (!args.group_id || !runs.length) return { runs };
  const path = `/v1/groups/${encodeURIComponent(args.group_id)}`;
  const { runs: _trials, ...reliability } = await v1.json<GroupBody>("GET", path);
  const summary = reliabilityLines(reliability);
  if (!reliability.baseline_group_id) return { runs, reliability, summary };
  const found = await v1.raw("GET", `${path}/compare`);
  // A baseline the team cannot read (or that has no runs yet) leaves the comparison out.
  if (found.status !== 200) return { runs, reliability, summary };
  const { baseline, rerun, ...comparison } = found.json as CompareBody;
  return {
    runs,
    reliability,
    summary: [...summary, ...comparisonLines({ ...comparison, baseline, rerun })],
    comparison: { ...comparison, baseline_pass_rate: baseline.pass_rate },
  };
}
