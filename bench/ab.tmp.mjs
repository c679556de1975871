import { startBareServer } from "./lib/bare.mjs";
import { closeConnections, request } from "./lib/http.mjs";
import { controlPlane } from "./lib/platform.mjs";
import { githubWorld } from "./lib/worlds.mjs";
import { percentile, shuffle, seededRandom } from "./lib/stats.mjs";
const { startDevServer } = await import("../test/node/server.ts");
const server = process.env.URL ? { url: process.env.URL, stop: async () => {} } : await startDevServer({ args: ["--var", "BENCH_FLOOR_ENABLED:true"] });
const bare = await startBareServer();
const p = controlPlane(server.url);
const s = await p.create(githubWorld({ issues: 10, labels: 50 }));
const random = seededRandom(3);
const series = [
  ["bare", () => request(bare.url)],
  ["floor", () => s.floor()],
  ["read", () => s.readIssue(1 + Math.floor(random() * 10))],
  ["write", () => s.writeComment(1 + Math.floor(random() * 10), "bench comment")],
];
const N = Number(process.env.N ?? 1500);
const samples = Object.fromEntries(series.map(([k]) => [k, []]));
for (let i = 0; i < N; i++) for (const [k, call] of shuffle(series, random)) { const r = await call(); if (i >= 200) samples[k].push(r.ms); if (r.status >= 300) throw new Error(k + " " + r.status + r.text); }
const b = percentile(samples.bare, 50);
console.log(series.map(([k]) => `${k} p50 ${percentile(samples[k], 50).toFixed(3)} (${(percentile(samples[k], 50) / b).toFixed(2)}x bare)`).join("\n"));
console.log(`read/floor ${(percentile(samples.read, 50) / percentile(samples.floor, 50)).toFixed(2)} write/floor ${(percentile(samples.write, 50) / percentile(samples.floor, 50)).toFixed(2)}`);
await p.discard(s.id);
closeConnections();
await bare.stop();
await server.stop();
