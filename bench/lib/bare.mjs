// The bare baseline: a plain Node `http` server answering `{"ok":true}`, in a process of its own
// as the platform is, on loopback with keep-alive. It is the cheapest HTTP round trip this machine
// can make, so the floor and every twin call are also reported as multiples of it.
import { spawn } from "node:child_process";
import { once } from "node:events";

const SERVER = `
const http = require("node:http");
const body = '{"ok":true}';
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;

/** Starts the bare server; resolves with its URL and a stop function. */
export async function startBareServer() {
  const child = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve, reject) => {
    let text = "";
    const onExit = () => reject(new Error("the bare baseline server exited at start"));
    child.once("exit", onExit);
    child.stdout.on("data", (chunk) => {
      text += chunk;
      if (!text.includes("\n")) return;
      child.off("exit", onExit);
      resolve(Number(text.trim()));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
