// Collecting a run's evidence: the tape and each twin's initial and final state, from the live
// Sandbox, from its R2 archive (an expired sandbox), or from blobs the caller uploaded. Whatever
// the source, everything is redacted before it is graded or stored.
import { z } from "zod";
import { evidenceKey } from "../../durable-objects/evidence-keys";
import { redactValue } from "../../durable-objects/redact";
import { tapeToJsonl } from "../../durable-objects/tape";
import type { TwinId } from "../../durable-objects/twins/registry";
import type { TapeRow } from "../../durable-objects/twins/types";
import { TWIN_IDS } from "../../durable-objects/twins/registry";
import { contentTypeForKey } from "../blobs/content-type";
import { ApiError } from "../errors";
import { lazyRow, splitLine } from "./tape-lines";
import { fromStorage, storedText } from "../blobs/storage";

export interface CollectedEvidence {
  source: "twin-pull" | "archive" | "blob";
  tape: TapeRow[];
  initial: Partial<Record<TwinId, unknown>>;
  final: Partial<Record<TwinId, unknown>>;
  /** The keys the initial states were read from. */
  initialKeys: Partial<Record<TwinId, string>>;
  /** The tape's stored text, when it was read from the Sandbox's own events.jsonl. */
  tapeText?: string;
}

const readText = storedText;

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("validation_failed", `${what} is not JSON (upload it plain, or declare Content-Encoding: gzip on the upload)`, {
      issues: [{ path: what, message: "Not JSON" }],
    });
  }
}

const tapeRow = z.object({
  seq: z.number().int().nonnegative(),
  at: z.string(),
  twin: z.enum(TWIN_IDS),
  transport: z.enum(["rest", "graphql", "mcp"]).default("rest"),
  method: z.string(),
  path: z.string(),
  query: z.string().default(""),
  request_headers: z.record(z.string(), z.string()).default({}),
  request_body: z.unknown().optional(),
  status: z.number().int(),
  response_body: z.unknown().optional(),
  mutated: z.boolean().default(false),
  fidelity: z.enum(["supported", "unsupported"]).default("supported"),
  operation: z.string().default(""),
});

/** One line's parse failure, refused with the line it is on. */
function lineError(what: string, i: number, issue: z.core.$ZodIssue): ApiError {
  const message = `${what} line ${i + 1}: ${issue.path.join(".") || "row"} — ${issue.message}`;
  return new ApiError("validation_failed", message, {
    issues: [{ path: `${what}[${i}].${issue.path.join(".")}`, message: issue.message }],
  });
}

/**
 * events.jsonl back into rows; an uploaded line that is not a tape row is refused with its line.
 * With `lazyBodies` (the Sandbox's own tape, already redacted) a row's bodies are parsed only
 * when something reads them (see tape-lines.ts); every other field is checked as before.
 */
export function parseTapeJsonl(text: string, what: string, opts: { lazyBodies?: boolean } = {}): TapeRow[] {
  const rows: TapeRow[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const split = opts.lazyBodies ? splitLine(line) : undefined;
    const json = parseJson(split ? split.head : line, `${what} line ${i + 1}`);
    const parsed = tapeRow.safeParse(json);
    if (!parsed.success) throw lineError(what, i, parsed.error.issues[0]);
    if (split) rows.push(lazyRow(parsed.data, split.requestBody ?? "null", split.responseBody ?? "null"));
    else rows.push({ ...parsed.data, request_body: parsed.data.request_body ?? null, response_body: parsed.data.response_body ?? null });
  });
  return rows.sort((a, b) => a.seq - b.seq);
}

/** The initial states an expired sandbox archived to R2. */
async function initialSnapshots(bucket: R2Bucket, teamId: string, sessionId: string, twins: readonly TwinId[]) {
  const initial: Partial<Record<TwinId, unknown>> = {};
  const initialKeys: Partial<Record<TwinId, string>> = {};
  for (const twin of twins) {
    const key = evidenceKey(teamId, sessionId, `state_initial.${twin}.json`);
    const text = await readText(bucket, key);
    if (text === undefined) continue;
    initial[twin] = parseJson(text, key);
    initialKeys[twin] = key;
  }
  return { initial, initialKeys };
}

export interface Where {
  bucket: R2Bucket;
  teamId: string;
  sessionId: string;
  twins: readonly TwinId[];
}

export const readSnapshots = (w: Where) => initialSnapshots(w.bucket, w.teamId, w.sessionId, w.twins);

/**
 * The evidence a Sandbox wrote to R2: its archive at expiry, or the export finalize asked for
 * (source "twin-pull"); undefined when its tape is not there.
 */
export async function fromArchive(w: Where, source: "archive" | "twin-pull"): Promise<CollectedEvidence | undefined> {
  const tapeText = await readText(w.bucket, evidenceKey(w.teamId, w.sessionId, "events.jsonl"));
  if (tapeText === undefined) return undefined;
  const final: Partial<Record<TwinId, unknown>> = {};
  for (const twin of w.twins) {
    const key = evidenceKey(w.teamId, w.sessionId, `state_final.${twin}.json`);
    const text = await readText(w.bucket, key);
    if (text !== undefined) final[twin] = parseJson(text, key);
  }
  return { source, tape: parseTapeJsonl(tapeText, "events.jsonl", { lazyBodies: true }), final, tapeText, ...(await readSnapshots(w)) };
}

/** A state blob: one twin's export, or for a multi-twin sandbox an envelope keyed by twin. */
function perTwinState(state: unknown, twins: readonly TwinId[]): Partial<Record<TwinId, unknown>> {
  if (twins.length > 1 && typeof state === "object" && state !== null && !Array.isArray(state)) {
    const keys = Object.keys(state);
    if (keys.length > 0 && keys.every((k) => (twins as readonly string[]).includes(k))) return state as Partial<Record<TwinId, unknown>>;
  }
  return { [twins[0]]: state };
}

export interface UploadedKeys {
  trace: string;
  stateInitial?: string;
  stateFinal?: string;
}

/** Blobs the caller uploaded for this sandbox; keys outside the sandbox's own prefix are refused. */
export async function fromUploads(w: Where, keys: UploadedKeys, provisioned: Partial<Record<TwinId, unknown>>): Promise<CollectedEvidence> {
  const prefix = evidenceKey(w.teamId, w.sessionId, "");
  const read = async (field: string, key: string) => {
    if (!key.startsWith(prefix))
      throw new ApiError("validation_failed", `${field}: not a key of this sandbox's uploads`, {
        issues: [{ path: field, message: `Keys start with ${prefix}` }],
      });
    const text = await readText(w.bucket, key);
    if (text === undefined)
      throw new ApiError("validation_failed", `${field}: no blob is stored under this key`, {
        issues: [{ path: field, message: "Blob not found" }],
      });
    return text;
  };
  const tape = parseTapeJsonl(await read("trace_storage_key", keys.trace), "trace_storage_key");
  const final = keys.stateFinal
    ? perTwinState(parseJson(await read("state_final_storage_key", keys.stateFinal), "state_final_storage_key"), w.twins)
    : {};
  // Without an uploaded initial state, the provision-time snapshot is the seed: it is ours, not the caller's.
  const snapshots: Pick<CollectedEvidence, "initial" | "initialKeys"> = { initial: { ...provisioned }, initialKeys: {} };
  if (keys.stateInitial) {
    const uploaded = perTwinState(
      parseJson(await read("state_initial_storage_key", keys.stateInitial), "state_initial_storage_key"),
      w.twins,
    );
    for (const twin of w.twins) {
      if (!(twin in uploaded)) continue;
      snapshots.initial[twin] = uploaded[twin];
      snapshots.initialKeys[twin] = keys.stateInitial;
    }
  }
  return { source: "blob", tape, final, ...snapshots };
}

/** Redacts every string of the evidence: secrets never reach grading or storage. */
export function redactEvidence(e: CollectedEvidence): CollectedEvidence {
  // What the Sandbox hands out (live or archived) was redacted when it was written: tape rows on
  // append, states on export. Only blobs a caller uploaded have not been through it.
  if (e.source !== "blob") return e;
  return { ...e, tape: redactValue(e.tape), initial: redactValue(e.initial), final: redactValue(e.final) };
}

/** Stores the graded evidence under the sandbox's keys; returns the keys the run points at. */
export async function storeEvidence(
  w: Where,
  e: CollectedEvidence,
): Promise<{ trace: string; finals: Partial<Record<TwinId, string>>; initials: Partial<Record<TwinId, string>> }> {
  const put = async (name: string, body: string) => {
    const key = evidenceKey(w.teamId, w.sessionId, name);
    await fromStorage(() => w.bucket.put(key, body, { httpMetadata: { contentType: contentTypeForKey(key) } }));
    return key;
  };
  // What the Sandbox wrote to R2 itself is already stored under these keys, exactly as graded.
  const written = e.source !== "blob";
  const trace = written ? evidenceKey(w.teamId, w.sessionId, "events.jsonl") : await put("events.jsonl", tapeToJsonl(e.tape));
  const finals: Partial<Record<TwinId, string>> = {};
  for (const twin of w.twins) {
    const state = e.final[twin];
    if (state === undefined) continue;
    finals[twin] = written
      ? evidenceKey(w.teamId, w.sessionId, `state_final.${twin}.json`)
      : await put(`state_final.${twin}.json`, JSON.stringify(state));
  }
  // Initial states not already in R2 (read live, or the provision snapshot behind an upload) join them.
  const initials: Partial<Record<TwinId, string>> = { ...e.initialKeys };
  for (const twin of w.twins) {
    const state = e.initial[twin];
    if (state !== undefined && initials[twin] === undefined)
      initials[twin] = await put(`state_initial.${twin}.json`, JSON.stringify(state));
  }
  return { trace, finals, initials };
}
