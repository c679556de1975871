#!/usr/bin/env node
// `npm run dev`: for changing the code. The D1 migrations first (as `npm start` applies them),
// then `wrangler dev` on 127.0.0.1 (port 8787, or $PORT), which rebuilds and reloads the Worker
// on every save. It shares `npm start`'s state folder and takes the same flags (--var
// NAME:value, --inspector-port N; anything else goes to wrangler dev as it is). Local
// observability is off here too, so a long session does not fill the state folder.
import { spawn } from "node:child_process";
import { localSettings, quietEnv, root, startupBlock, wranglerBin } from "./local.mjs";
import { prepare } from "./prepare.mjs";

async function main() {
  const { host, port, stateDir } = localSettings();
  const args = process.argv.slice(2);
  const { migrations } = await prepare(stateDir);
  const dev = spawn(
    wranglerBin,
    ["dev", "--ip", host, "--port", String(port), "--persist-to", stateDir, "--show-interactive-dev-session=false", ...args],
    { cwd: root, env: quietEnv(), stdio: ["ignore", "pipe", "inherit"] },
  );
  // wrangler's own output passes through; the start-up block follows its first "Ready on".
  let announced = false;
  dev.stdout.on("data", (chunk) => {
    process.stdout.write(chunk);
    if (!announced && /Ready on /.test(String(chunk))) {
      announced = true;
      const vars = Object.fromEntries(args.flatMap((a, i) => (args[i - 1] === "--var" ? [a.split(":")] : [])));
      console.log(
        `\n${startupBlock({ url: `http://${host}:${port}`, mode: "wrangler dev, reloading on every save", stateDir, migrations, vars })}`,
      );
    }
  });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
  dev.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((err) => {
  console.error(`pome: npm run dev failed: ${err?.message ?? err}`);
  process.exit(1);
});
