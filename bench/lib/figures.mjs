// A figure is one row of the result table: our value, what it is measured against, the ratio, the
// target, the p99 of the same two series where the figure reports one, and a peer's published
// figure printed beside it.

/**
 * The best open-source peer's figures (its twins on Node 24 with SQLite, over loopback), as quoted
 * in issue 5, and the side-by-side run of issue 10. Printed beside ours; only memory is judged.
 */
export const PEER = {
  labelList10k: "160 ms",
  coldStart: "~0.6 s",
  memory10k: "331 MiB (112 idle)",
  memoryAdded: "219 MiB (331 − 112)",
  // Issue 10's side-by-side run: the peer's p50 as a multiple of the bare Node round trip.
  readVsBare: "3.4× (1.70 ms)",
  writeVsBare: "4.6× (2.31 ms)",
};
/** Peer memory, MiB, as numbers for the memory targets ("beat the best of those figures"). */
export const PEER_MIB = { afterSeed: 331, added: 331 - 112 };

/**
 * @param {object} f
 * @param {string} f.id
 * @param {string} f.name
 * @param {number|null} [f.value]
 * @param {string} [f.unit]
 * @param {number|null} [f.baseline]
 * @param {string} [f.baselineLabel]
 * @param {{ max?: number, min?: number, equals?: number, of?: "ratio"|"value" }|null} [f.target]
 * @param {{ value: number|null, baseline: number|null, ratio: number|null }|null} [f.p99] the same
 *   series' p99 and the baseline's, reported beside a p50 figure and never judged
 */
export function figure(f) {
  const value = finite(f.value);
  const baseline = finite(f.baseline);
  const ratio = f.ratio !== undefined ? finite(f.ratio) : value !== null && baseline ? value / baseline : null;
  const out = {
    id: f.id,
    section: f.section ?? "",
    name: f.name,
    value,
    unit: f.unit ?? "ms",
    baseline,
    baseline_label: f.baselineLabel ?? null,
    ratio,
    target: f.target ?? null,
    met: null,
    p99: f.p99 ?? null,
    peer: f.peer ?? null,
    spread: f.spread ?? null,
    reps: f.reps ?? null,
    samples: f.samples ?? null,
    error: f.error ?? null,
    note: f.note ?? null,
  };
  out.met = out.error ? false : judge(out);
  return out;
}

/** A figure that could not be measured: ✗ with the reason (usually the HTTP status). */
export const failed = (f, error) => figure({ ...f, value: null, baseline: null, error });

const finite = (v) => (typeof v === "number" && Number.isFinite(v) ? v : null);

function judge(f) {
  const t = f.target;
  if (!t) return null;
  const subject = t.of === "value" ? f.value : f.ratio;
  if (subject === null) return false;
  if (t.max !== undefined) return subject <= t.max;
  if (t.min !== undefined) return subject >= t.min;
  if (t.equals !== undefined) return subject === t.equals;
  return null;
}

export function formatTarget(t) {
  if (!t) return "—";
  const unit = t.of === "value" ? "" : "×";
  if (t.max !== undefined) return `≤ ${t.max}${unit}`;
  if (t.min !== undefined) return `≥ ${t.min}${unit}`;
  return `= ${t.equals}${unit}`;
}

export function formatValue(v, unit) {
  if (v === null || v === undefined) return "—";
  switch (unit) {
    case "ms":
      return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : v >= 100 ? `${v.toFixed(0)} ms` : `${v.toFixed(2)} ms`;
    case "MiB":
      return `${v.toFixed(1)} MiB`;
    case "calls/s":
      return `${v.toFixed(0)} calls/s`;
    default:
      return `${v}${unit ? ` ${unit}` : ""}`;
  }
}

export const formatRatio = (r) => (r === null ? "—" : `${r.toFixed(2)}×`);

/** The p99 cell: the value and its ratio to the baseline's p99 ("2.39 ms, 1.90×"). */
export function formatP99(p99, unit) {
  if (!p99 || p99.value === null) return "";
  return p99.ratio === null ? formatValue(p99.value, unit) : `${formatValue(p99.value, unit)}, ${formatRatio(p99.ratio)}`;
}
export const mark = (f) => (f.met === null ? "·" : f.met ? "✓" : "✗");
