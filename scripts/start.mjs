#!/usr/bin/env node
// `npm start`: serve the whole platform on 127.0.0.1 (port 8787, or $PORT) the way a deployment
// runs it, without `wrangler dev`'s proxy worker and local observability in front of every call.
//
// 1. Bundle the Worker with wrangler's own bundler (`wrangler deploy --dry-run`): the very bundle
//    a deployment ships, written to `bundle/` in the state folder.
// 2. Apply the D1 migrations to the local database (the same `d1_migrations` table wrangler
//    keeps, so `npm run dev` and `wrangler d1 migrations apply --local` agree with it).
// 3. Run the bundle under Miniflare with the bindings wrangler derives from `wrangler.toml`,
//    D1, R2 and Durable Objects persisted in $POME_STATE_DIR (default .wrangler/state), in the
//    same layout `wrangler dev --persist-to` uses.
// 4. Serve it on a socket that goes straight to the Worker (Miniflare's direct socket), not
//    through Miniflare's entry worker: that hop adds a request copy and a service call to every
//    call (0.15–0.18 ms of a 0.5 ms floor here) for things the platform does not use (`cf`
//    defaults, pretty error pages, `/cdn-cgi/` handlers, compression negotiation).
//
// No account, no prompts, no network, no telemetry. Flags: --var NAME:value, --inspector-port N.
// `npm run dev` is the live-reloading alternative for changing the code.
//
// Before anything is built or opened: the state folder's lock (one server per folder, or two
// corrupt its sandboxes; scripts/state-lock.mjs) and a look at the port, so either problem is
// reported at once. Ctrl-C or SIGTERM stops it cleanly: Miniflare disposed once, the runtime's
// exit not taken for a crash, the lock and the bundle removed, exit status 130 (143 for SIGTERM).
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import {
  checkPortFree,
  judgeSummary,
  loadedSecretSettings,
  localSettings,
  maskSecrets,
  parseServerArgs,
  quietEnv,
  root,
  runQuiet,
  secretValues,
  startupBlock,
  stopRunningChildren,
  wranglerBin,
} from "./local.mjs";
import { takeStateLock } from "./state-lock.mjs";

const withoutModuleRules = ({ modulesRules, ...rest }) => rest;

async function bundle(outdir) {
  await runQuiet(wranglerBin, ["deploy", "--dry-run", "--outdir", outdir], { env: { ...quietEnv(), CI: "true" } });
  return path.join(outdir, "index.js");
}

/** Secret values this process knows of; any output line quoting one is masked (issue 36, point 7). */
const knownSecrets = [];

/** Set once a stop signal arrived: from then on nothing is reported as a failure or a crash. */
let stopping = false;
/** The running Miniflare, once there is one. */
let mf;

/** How long a stop waits for Miniflare's dispose() before exiting anyway. */
const DISPOSE_TIMEOUT_MS = 10_000;
/** The exit status of a process ended by a signal, as shells report it (and Miniflare's own exit hook exits). */
const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * Stops on purpose: whatever is still building is ended, Miniflare disposed once, then the
 * signal's usual exit status (130 for Ctrl-C). Once Miniflare runs, its own exit hook (which it
 * registers after this handler) kills the runtime and exits with that same status in the same
 * tick; `stopping` is set first, so the runtime's exit is not reported as a crash. The lock and
 * the bundle go on exit.
 */
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  stopRunningChildren("SIGTERM");
  const disposed = mf?.dispose().catch(() => {});
  await Promise.race([disposed, new Promise((resolve) => setTimeout(resolve, DISPOSE_TIMEOUT_MS).unref())]);
  process.exit(SIGNAL_EXIT[signal] ?? 0);
}

async function main() {
  const { host, port, stateDir } = localSettings();
  const { vars, inspectorPort } = parseServerArgs(process.argv.slice(2));
  knownSecrets.push(...secretValues(vars));
  // The lock before anything in the folder is touched (the bundle below included); released
  // on process exit, which every way out below reaches.
  takeStateLock(stateDir, { command: "npm start", url: `http://${host}:${port}` });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => void stop(signal));
  await checkPortFree(host, port, "npm start");
  // The bundle lives in the state folder, so a server killed before it could clean up leaves it
  // where the next start replaces it, not a new folder in the OS temp folder each time.
  const outdir = path.join(stateDir, "bundle");
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  // On every way out: when the runtime dies with the process group, Node can run out of work
  // (and exit) while Miniflare's dispose() is still pending, without reaching stop()'s exit.
  process.on("exit", () => rmSync(outdir, { recursive: true, force: true }));
  // Miniflare loads only now, beside the build: seconds on a busy machine, which the two checks
  // above should not wait for.
  const [{ miniflare, sharedOptions }, scriptPath, { workerOptions, migrations }] = await Promise.all([
    import("./local-miniflare.mjs"),
    bundle(outdir),
    runQuiet(process.execPath, [path.join(root, "scripts", "prepare.mjs")], { env: { ...quietEnv(), POME_STATE_DIR: stateDir } }).then(
      (out) => JSON.parse(out.trim().split("\n").at(-1) ?? ""),
    ),
  ]);
  if (stopping) return;
  knownSecrets.push(...secretValues(workerOptions.bindings));
  mf = miniflare({
    ...sharedOptions(stateDir, { secrets: knownSecrets, stopping: () => stopping }),
    // Miniflare always opens its entry socket; it stays private, on a free loopback port.
    host: "127.0.0.1",
    port: 0,
    inspectorPort,
    workers: [
      {
        // The bundle is one ES module: wrangler's module rules have nothing left to find.
        ...withoutModuleRules(workerOptions),
        // wrangler.toml's `name`: Durable Objects persist under it, shared with `npm run dev`.
        name: "pome-twins",
        rootPath: root,
        modules: [{ type: "ESModule", path: scriptPath }],
        modulesRoot: path.dirname(scriptPath),
        bindings: { ...workerOptions.bindings, ...vars },
        unsafeDirectSockets: [{ host, port }],
      },
    ],
  });
  await mf.ready.catch((err) => {
    // Taken between the look above and now.
    if (err?.code !== "ERR_ADDRESS_IN_USE") throw err;
    throw new Error(`${host}:${port} is already in use; stop what serves there, or start on another port (PORT=8788 npm start)`);
  });
  const url = (await mf.unsafeGetDirectURL()).origin;
  if (stopping) return;
  const loadedSecrets = loadedSecretSettings(workerOptions.bindings);
  const judge = judgeSummary({ bindings: workerOptions.bindings, vars });
  console.log(startupBlock({ url, mode: "the deployment bundle under Miniflare", stateDir, migrations, vars, loadedSecrets, judge }));
}

main().catch(async (err) => {
  // A stop signal during start-up makes whatever was pending fail: that is no failure to report.
  if (stopping) return;
  console.error(maskSecrets(`pome: npm start failed: ${err?.message ?? err}`, knownSecrets));
  stopRunningChildren("SIGTERM");
  await mf?.dispose().catch(() => {});
  process.exit(1);
});
