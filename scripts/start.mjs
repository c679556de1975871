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
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { localSettings, parseServerArgs, quietEnv, root, runQuiet, startupBlock, wranglerBin } from "./local.mjs";
import { miniflare, sharedOptions } from "./local-miniflare.mjs";

const withoutModuleRules = ({ modulesRules, ...rest }) => rest;

async function bundle(outdir) {
  await runQuiet(wranglerBin, ["deploy", "--dry-run", "--outdir", outdir], { env: { ...quietEnv(), CI: "true" } });
  return path.join(outdir, "index.js");
}

async function main() {
  const { host, port, stateDir } = localSettings();
  const { vars, inspectorPort } = parseServerArgs(process.argv.slice(2));
  // The bundle lives in the state folder, so a server killed before it could clean up leaves it
  // where the next start replaces it, not a new folder in the OS temp folder each time.
  const outdir = path.join(stateDir, "bundle");
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const cleanup = () => rmSync(outdir, { recursive: true, force: true });
  // On every way out: when the runtime dies with the process group, Node can run out of work
  // (and exit) while Miniflare's dispose() is still pending, without reaching the handler below.
  process.on("exit", cleanup);
  try {
    const [scriptPath, { workerOptions, migrations }] = await Promise.all([
      bundle(outdir),
      runQuiet(process.execPath, [path.join(root, "scripts", "prepare.mjs")], { env: { ...quietEnv(), POME_STATE_DIR: stateDir } }).then(
        (out) => JSON.parse(out.trim().split("\n").at(-1) ?? ""),
      ),
    ]);
    const mf = miniflare({
      ...sharedOptions(stateDir),
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
      if (err?.code !== "ERR_ADDRESS_IN_USE") throw err;
      throw new Error(`${host}:${port} is already in use; stop what serves there, or start on another port (PORT=8788 npm start)`);
    });
    const url = (await mf.unsafeGetDirectURL()).origin;
    console.log(startupBlock({ url, mode: "the deployment bundle under Miniflare", stateDir, migrations, vars }));
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await mf.dispose().catch(() => {});
      cleanup();
      process.exit(0);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  } catch (err) {
    cleanup();
    throw err;
  }
}

main().catch((err) => {
  console.error(`pome: npm start failed: ${err?.message ?? err}`);
  process.exit(1);
});
