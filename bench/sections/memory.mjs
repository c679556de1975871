// Figure 6: resident memory of the workerd runtime holding the Durable Objects, idle and after
// seeding several big sandboxes, read from /proc (VmRSS now, VmHWM the peak).
import { PEER, PEER_MIB, failed, figure } from "../lib/figures.mjs";
import { findWorkerdRuntime, residentMemory } from "../lib/workerd.mjs";
import { githubWorld } from "../lib/worlds.mjs";

const S6 = "6. Memory";

export async function measureMemory({ platform, sizes, port, log }) {
  const count = sizes.memorySandboxes;
  const issues = sizes.memoryWorld.toLocaleString("en-US");
  // The peer's numbers are for a 10,000-issue seed; a smoke run's smaller worlds are not judged against them.
  const comparable = sizes.memoryWorld >= 10_000;
  const specs = {
    total: {
      id: "memory.peak",
      section: S6,
      name: `workerd peak RSS after ${count} × ${issues}-issue seeds`,
      unit: "MiB",
      baselineLabel: "idle RSS",
      target: null,
    },
    perSandbox: {
      id: "memory.per-sandbox",
      section: S6,
      name: `Peak RSS per sandbox (÷ ${count})`,
      unit: "MiB",
      baselineLabel: "peer",
      target: comparable ? { max: 1 } : null,
      peer: PEER.memory10k,
    },
    added: {
      id: "memory.added",
      section: S6,
      name: `RSS added per ${issues}-issue sandbox`,
      unit: "MiB",
      baselineLabel: "peer",
      target: comparable ? { max: 1 } : null,
      peer: PEER.memoryAdded,
    },
  };
  const pid = findWorkerdRuntime(port);
  if (pid === undefined)
    return Object.values(specs).map((s) => failed(s, `no workerd runtime found behind port ${port} (needs Linux /proc)`));
  const idle = residentMemory(pid);
  const sandboxes = [];
  try {
    for (let i = 0; i < count; i++) sandboxes.push(await platform.create(githubWorld({ issues: sizes.memoryWorld, labels: 50 })));
    const after = residentMemory(pid);
    log(
      `memory: workerd ${pid} idle ${idle.rssMiB.toFixed(0)} MiB, after ${count} seeds ${after.rssMiB.toFixed(0)} MiB (peak ${after.peakMiB.toFixed(0)} MiB)`,
    );
    const note = `workerd pid ${pid}; VmRSS after seeding ${after.rssMiB.toFixed(1)} MiB`;
    return [
      figure({ ...specs.total, value: after.peakMiB, baseline: idle.rssMiB, note }),
      figure({
        ...specs.perSandbox,
        value: after.peakMiB / count,
        baseline: comparable ? PEER_MIB.afterSeed : null,
        ratio: comparable ? undefined : null,
        note,
      }),
      figure({
        ...specs.added,
        value: (after.peakMiB - idle.rssMiB) / count,
        baseline: comparable ? PEER_MIB.added : null,
        ratio: comparable ? undefined : null,
        note,
      }),
    ];
  } catch (err) {
    return Object.values(specs).map((s) => failed(s, err.message));
  } finally {
    for (const s of sandboxes) await platform.discard(s.id);
  }
}
