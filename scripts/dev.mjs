#!/usr/bin/env node
// `npm run dev`: for changing the code. The D1 migrations first (as `npm start` applies them),
// then `wrangler dev` on 127.0.0.1 (port 8787, or $PORT), which rebuilds and reloads the Worker
// on every save. It shares `npm start`'s state folder and takes the same flags (--var
// NAME:value, --inspector-port N; anything else goes to wrangler dev as it is). Local
// observability is off here too, so a long session does not fill the state folder.
//
// Like `npm start`, it takes the state folder's lock and looks at the port before anything else.
import { spawn } from "node:child_process";
import {
  checkPortFree,
  judgeSummary,
  localSettings,
  maskSecrets,
  quietEnv,
  root,
  secretValues,
  startupBlock,
  wranglerBin,
} from "./local.mjs";
import { takeStateLock } from "./state-lock.mjs";

/** wrangler dev, once it runs. */
let dev;
/** The exit status once a stop signal arrived (as shells report a signalled command), else undefined. */
let stopping;
const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

async function main() {
  const { host, port, stateDir } = localSettings();
  const args = process.argv.slice(2);
  takeStateLock(stateDir, { command: "npm run dev", url: `http://${host}:${port}` });
  // Before wrangler dev runs, a stop signal ends this process (and with it the lock); after,
  // it goes to wrangler dev, whose exit ends this one.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"])
    process.on(signal, () => {
      stopping = SIGNAL_EXIT[signal];
      if (dev) dev.kill(signal);
      else process.exit(stopping);
    });
  await checkPortFree(host, port, "npm run dev");
  // wrangler and Miniflare load only now: seconds on a busy machine, which the checks above
  // should not wait for.
  const { prepare } = await import("./prepare.mjs");
  const { workerOptions, migrations } = await prepare(stateDir);
  if (stopping !== undefined) return;
  dev = spawn(
    wranglerBin,
    ["dev", "--ip", host, "--port", String(port), "--persist-to", stateDir, "--show-interactive-dev-session=false", ...args],
    { cwd: root, env: quietEnv(), stdio: ["ignore", "pipe", "inherit"] },
  );
  // wrangler's own output passes through, with the value of a secret --var masked (wrangler's
  // bindings table prints --var values); the start-up block follows its first "Ready on".
  const vars = Object.fromEntries(args.flatMap((a, i) => (args[i - 1] === "--var" ? [a.split(":")] : [])));
  const secrets = secretValues(vars);
  let announced = false;
  dev.stdout.on("data", (chunk) => {
    process.stdout.write(secrets.length ? maskSecrets(String(chunk), secrets) : chunk);
    if (!announced && /Ready on /.test(String(chunk))) {
      announced = true;
      const judge = judgeSummary({ bindings: workerOptions.bindings, vars });
      console.log(
        `\n${startupBlock({ url: `http://${host}:${port}`, mode: "wrangler dev, reloading on every save", stateDir, migrations, vars, judge })}`,
      );
    }
  });
  dev.on("exit", (code, signal) => process.exit(stopping ?? code ?? (signal ? 1 : 0)));
}

main().catch((err) => {
  if (stopping !== undefined) return;
  console.error(`pome: npm run dev failed: ${err?.message ?? err}`);
  process.exit(1);
});
