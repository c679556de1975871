// The reliability statistics as lines of text, so the CLI, the control MCP and report readers say
// the same thing in the same words. Type-only imports: the CLI loads this file through Node's
// type stripping, which cannot follow extensionless imports.
import type { Comparison } from "./compare";
import type { Interval, Reliability } from "./reliability";

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const range = (i: Interval) => `${pct(i.low)}–${pct(i.high)}`;
const quote = (text: string) => `"${text.length > 90 ? `${text.slice(0, 87)}…` : text}"`;

const VERDICT_WORDS: Record<Reliability["verdict"], string> = {
  passed: "PASSED",
  failed: "FAILED",
  incomplete: "INCOMPLETE (some trials were not fully graded)",
  no_data: "NO VERDICT",
};

export function passRateLine(
  r: Pick<Reliability, "pass_rate" | "interval" | "passed" | "graded" | "errored" | "pass_threshold" | "verdict"> &
    Partial<Pick<Reliability, "incomplete">>,
): string {
  const incomplete = r.incomplete ? `; ${r.incomplete} incomplete (not fully graded), not counted` : "";
  const errored = `${incomplete}${r.errored ? `; ${r.errored} errored, not counted` : ""}`;
  if (r.pass_rate === null || !r.interval)
    return `Pass rate: no graded trials${errored}; threshold ${r.pass_threshold}%: ${VERDICT_WORDS[r.verdict]}`;
  return `Pass rate ${pct(r.pass_rate)} (${r.passed} of ${r.graded} graded trials${errored}), 95% Wilson interval ${range(r.interval)}; threshold ${r.pass_threshold}%: ${VERDICT_WORDS[r.verdict]}`;
}

export function reliabilityLines(r: Reliability): string[] {
  const lines = [passRateLine(r)];
  if (r.pass_hat_k.length > 1)
    lines.push(`pass^k (all of k trials pass): ${r.pass_hat_k.map((p) => `k=${p.k} ${pct(p.estimate)}`).join(" · ")}`);
  if (r.pass_rate !== null && !r.verdict_settled) lines.push("The threshold lies inside the interval: more trials could turn the verdict.");
  const flaky = r.criteria.filter((c) => c.flaky);
  if (flaky.length) {
    lines.push(`Flaky criteria (passed in some trials, failed in others):`);
    for (const c of flaky) lines.push(`  ${quote(c.text)}: passed ${c.passed} of ${c.passed + c.failed}`);
  } else if (r.graded > 1) lines.push("No flaky criteria.");
  return lines;
}

export function comparisonLines(
  c: Comparison & { baseline: Reliability; rerun: Reliability; baseline_group_id: string; group_id: string },
): string[] {
  const rate = (r: Reliability) => (r.pass_rate === null ? "n/a" : pct(r.pass_rate));
  const change =
    c.pass_rate_change === null ? "" : ` (${c.pass_rate_change >= 0 ? "+" : ""}${Math.round(c.pass_rate_change * 1000) / 10} points)`;
  const lines = [`Pass rate ${rate(c.baseline)} in ${c.baseline_group_id} → ${rate(c.rerun)} in ${c.group_id}${change}`];
  if (c.test)
    lines.push(
      `Fisher's exact test (two-sided): p = ${c.test.p_value.toFixed(3)}; ${c.test.significant ? "larger than the noise of these sample sizes" : `within the noise of ${c.baseline.graded} against ${c.rerun.graded} trials`}`,
    );
  const flips = c.criteria.filter((d) => d.flip);
  for (const d of flips) lines.push(`  ${d.flip === "failed→passed" ? "failed → passed" : "passed → failed"}: ${quote(d.text)}`);
  if (!flips.length) lines.push("No criterion flipped.");
  return lines;
}
