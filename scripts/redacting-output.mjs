// The server's console, redacted line by line before it reaches the terminal: wrangler logs each
// request's path, and a token an agent put in a URL must not land in a terminal or a CI log.
// Uses the platform's own redaction (durable-objects/redact.ts), loaded with Node's type stripping.
import readline from "node:readline";

export async function pipeRedacted(from, to) {
  let redact = (line) => line;
  try {
    ({ redactLogLine: redact } = await import("../durable-objects/redact.ts"));
  } catch (err) {
    to.write(`pome: server output is not redacted (this Node cannot load redact.ts: ${err?.code ?? err})\n`);
  }
  readline.createInterface({ input: from, crlfDelay: Infinity }).on("line", (line) => to.write(`${redact(line)}\n`));
}
