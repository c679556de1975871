// The reliability statistics against values worked out by hand (the arithmetic is in each comment).
import { describe, expect, it } from "vitest";
import { compareReliability, flipOf } from "../../../workers/stats/compare";
import {
  fisherExact,
  passHatK,
  reliability,
  trialOutcome,
  wilson,
  type Trial,
  type TrialCriterion,
} from "../../../workers/stats/reliability";

const close = (actual: number, expected: number) => expect(actual).toBeCloseTo(expected, 4);

describe("the Wilson 95% interval", () => {
  it("is the whole of [0, 1] with no trials", () => {
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it("matches hand computation at 5/10", () => {
    // p = .5, z² = 3.8415, centre = (.5 + .19207) / 1.38415 = .5,
    // half = (1.95996 / 1.38415) · √(.025 + .0096037) = 1.41600 · .186021 = .26341
    const i = wilson(5, 10);
    close(i.low, 0.23659);
    close(i.high, 0.76341);
  });

  it("is not zero-width at 0/5 and 10/10", () => {
    // 0/5: centre = .38415 / 1.76829 = .21724 = half, so [0, .43448]
    const none = wilson(0, 5);
    expect(none.low).toBe(0);
    close(none.high, 0.43448);
    // 10/10: centre = (1 + .19207) / 1.38415 = .86123, half = 1.41600 · √.0096037 = .13877
    const all = wilson(10, 10);
    close(all.low, 0.72246);
    expect(all.high).toBe(1);
  });
});

describe("pass^k, estimated without bias as C(c, k) / C(n, k)", () => {
  it("gives 3/5, 3/10, 1/10, 0, 0 for three passes in five trials", () => {
    // C(3,1)/C(5,1) = 3/5; C(3,2)/C(5,2) = 3/10; C(3,3)/C(5,3) = 1/10; k > c is impossible.
    const est = passHatK(5, 3);
    expect(est).toHaveLength(5);
    [0.6, 0.3, 0.1, 0, 0].forEach((v, i) => close(est[i], v));
  });

  it("is below the naive (c/n)^k once k > 1", () => {
    // (3/5)² = .36 against the unbiased .3: the naive power counts one lucky pass twice.
    expect(passHatK(5, 3)[1]).toBeLessThan(0.6 ** 2);
  });

  it("is 1 for every k when every trial passed, and empty with no trials", () => {
    expect(passHatK(4, 4)).toEqual([1, 1, 1, 1]);
    expect(passHatK(0, 0)).toEqual([]);
  });
});

describe("Fisher's exact test, two-sided", () => {
  it("finds 0/5 against 5/5 significant: p = 2 / C(10, 5) = 2/252", () => {
    close(fisherExact(0, 5, 5, 5), 2 / 252);
  });

  it("finds 3/3 against 0/3 not significant: p = 2 / C(6, 3) = 0.1", () => {
    close(fisherExact(3, 3, 0, 3), 0.1);
  });

  it("sums the tables at most as likely as 1/4 against 3/4: (1 + 16 + 16 + 1) / 70", () => {
    // P(x) = C(4,x)·C(4,4−x)/C(8,4) for x = 0…4 is 1, 16, 36, 16, 1 over 70.
    close(fisherExact(1, 4, 3, 4), 34 / 70);
  });

  it("is 1 when the samples agree or one is empty", () => {
    close(fisherExact(2, 4, 2, 4), 1);
    expect(fisherExact(0, 0, 3, 3)).toBe(1);
  });
});

const crit = (text: string, status: TrialCriterion["status"]): TrialCriterion => ({ id: text.slice(0, 2), text, kind: "code", status });
const trial = (id: string, score: number | null, criteria: TrialCriterion[] = []): Trial => ({ run_id: id, score, criteria });

describe("a run-set's reliability", () => {
  const trials = [
    trial("r1", 100, [crit("labelled", "passed"), crit("commented", "passed")]),
    trial("r2", 100, [crit("labelled", "passed"), crit("commented", "passed")]),
    trial("r3", 50, [crit("labelled", "passed"), crit("commented", "failed")]),
    trial("r4", null, [crit("labelled", "skipped"), crit("commented", "skipped")]),
    trial("r5", 100, [crit("labelled", "passed"), crit("commented", "passed")]),
  ];

  it("counts an unscored run as errored, shown but out of the fraction", () => {
    const r = reliability(trials, { passThreshold: 80 });
    expect(r).toMatchObject({ trials: 5, graded: 4, passed: 3, failed: 1, errored: 1, errored_runs: ["r4"], pass_rate: 0.75 });
    close(r.mean_score ?? -1, 87.5);
    // 3/4 is 75% < 80%: failed; and the interval [.30, .95] holds .8, so more trials could turn it.
    expect(r.verdict).toBe("failed");
    expect(r.verdict_settled).toBe(false);
    // C(3,k)/C(4,k): 3/4, 3/6, 1/4, 0
    expect(r.pass_hat_k.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    [0.75, 0.5, 0.25, 0].forEach((v, i) => close(r.pass_hat_k[i].estimate, v));
  });

  it("passes at the threshold and uses the task's passScore", () => {
    expect(reliability(trials, { passThreshold: 75 }).verdict).toBe("passed");
    // With passScore 50 all four graded trials pass.
    expect(reliability(trials, { passScore: 50 })).toMatchObject({ passed: 4, verdict: "passed" });
    expect(trialOutcome(99)).toBe("failed");
    expect(trialOutcome(null)).toBe("errored");
  });

  it("has no verdict when nothing was graded", () => {
    expect(reliability([trial("r", null)])).toMatchObject({ verdict: "no_data", pass_rate: null, interval: null, pass_hat_k: [] });
  });

  it("flags a criterion that both passed and failed as flaky", () => {
    const [labelled, commented] = reliability(trials).criteria;
    expect(labelled).toMatchObject({ text: "labelled", passed: 4, failed: 0, excluded: 1, pass_rate: 1, flaky: false, status: "passed" });
    expect(commented).toMatchObject({
      text: "commented",
      passed: 3,
      failed: 1,
      excluded: 1,
      pass_rate: 0.75,
      flaky: true,
      status: "flaky",
    });
  });
});

describe("baseline against rerun", () => {
  it("names flips in both directions and tests the change against the noise", () => {
    const baseline = reliability([0, 1, 2, 3, 4].map((i) => trial(`b${i}`, 50, [crit("labelled", "passed"), crit("commented", "failed")])));
    const rerun = reliability([0, 1, 2, 3, 4].map((i) => trial(`a${i}`, 100, [crit("labelled", "failed"), crit("commented", "passed")])));
    const cmp = compareReliability(baseline, rerun);
    expect(cmp.pass_rate_change).toBe(1);
    expect(cmp.test?.method).toBe("fisher_exact_two_sided");
    close(cmp.test?.p_value ?? -1, 2 / 252);
    expect(cmp.test?.significant).toBe(true);
    expect(cmp.intervals_overlap).toBe(false);
    const byText = Object.fromEntries(cmp.criteria.map((c) => [c.text, c]));
    expect(byText.commented).toMatchObject({
      flip: "failed→passed",
      changed: true,
      before: { status: "failed" },
      after: { status: "passed" },
    });
    expect(byText.labelled).toMatchObject({ flip: "passed→failed", changed: true });
    expect(cmp).toMatchObject({ fixed: 1, broken: 1 });
  });

  it("does not call 3/3 against 0/3 more than noise", () => {
    const baseline = reliability([1, 2, 3].map((i) => trial(`b${i}`, 0, [crit("x", "failed")])));
    const rerun = reliability([1, 2, 3].map((i) => trial(`a${i}`, 100, [crit("x", "passed")])));
    const cmp = compareReliability(baseline, rerun);
    close(cmp.test?.p_value ?? -1, 0.1);
    expect(cmp.test?.significant).toBe(false);
    expect(cmp.criteria[0].flip).toBe("failed→passed");
  });

  it("treats flaky → passed as fixed, flaky → flaky as no flip, and a new criterion as absent before", () => {
    expect(flipOf("flaky", "passed")).toBe("failed→passed");
    expect(flipOf("passed", "flaky")).toBe("passed→failed");
    expect(flipOf("flaky", "flaky")).toBeNull();
    const cmp = compareReliability(reliability([]), reliability([trial("a", 100, [crit("new", "passed")])]));
    expect(cmp.criteria[0]).toMatchObject({ before: { status: "absent" }, flip: null, changed: true, test: null });
    expect(cmp.pass_rate_change).toBeNull();
  });
});
