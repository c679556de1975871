// pome trace <run_id> [--out FILE] [--state]
import { writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { parseCommandLine } from "../lib/args.mjs";
import { CliError, EXIT, usageError } from "../lib/errors.mjs";
import { unreachable } from "../lib/api.mjs";

export const OPTIONS = { out: { type: "string", short: "o" }, state: { type: "boolean", default: false } };

export const HELP = `pome trace <run_id> [--out FILE] [--state]

Downloads the run's tape (events.jsonl: one JSON object per call the agent made) through a
short-lived signed URL. --state downloads the twins' final state instead. --out - writes to stdout.
Default file: <run_id>.events.jsonl (or <run_id>.state.json).`;

/** Blobs may be stored gzipped or plain; the download says neither, so look at the bytes. */
const maybeGunzip = (bytes) => (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes);

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length !== 1) throw usageError("pome trace takes one run id: pome trace <run_id>");
  const id = positionals[0];
  const blob = values.state ? "state" : "trace";
  const signed = await ctx.api.get(`/v1/runs/${encodeURIComponent(id)}/${blob}`);
  let res;
  try {
    // The signed URL carries its own authorization; the team key is not sent with it.
    res = await fetch(signed.url, { signal: AbortSignal.timeout(120_000) });
  } catch (err) {
    throw unreachable(new URL(signed.url).origin, err);
  }
  if (!res.ok)
    throw new CliError(
      `Downloading the ${blob} of ${id} answered ${res.status}; the signed URL may have expired, run the command again`,
      EXIT.API,
    );
  const bytes = maybeGunzip(Buffer.from(await res.arrayBuffer()));
  const file = values.out ?? `${id}.${blob === "state" ? "state.json" : "events.jsonl"}`;
  if (file === "-") {
    process.stdout.write(bytes);
    return EXIT.OK;
  }
  writeFileSync(file, bytes);
  const rows =
    blob === "trace"
      ? bytes
          .toString("utf8")
          .split("\n")
          .filter((l) => l.trim()).length
      : undefined;
  ctx.out.result(`Saved ${blob === "trace" ? `${rows} tape rows` : "the final state"} of ${id} to ${file}`, {
    run_id: id,
    blob,
    file,
    bytes: bytes.length,
    ...(rows !== undefined ? { rows } : {}),
  });
  return EXIT.OK;
}
