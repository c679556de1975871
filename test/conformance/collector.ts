// Every answer the workers tests get from a twin, checked against the vendor's published schema.
// The tests run inside workerd, where Ajv cannot compile (it needs `new Function`); this module
// runs in Node, as a Miniflare service binding (`CONFORMANCE`, vitest.config.ts) that
// test/workers/setup.ts calls after each test with the tapes of the sandboxes the test made.
// Each row is measured the way test/node/fidelity/conformance.test.ts measures scripted sessions;
// a difference the twin does not declare in its fidelity.ts comes back to fail the test.
import { appendFileSync } from "node:fs";
import path from "node:path";
import { type Difference, declared, differencesOf, exampleDifferences } from "../../durable-objects/twins/kit/fidelity/conformance";
import type { AnswerCheck, TwinFidelity } from "../../durable-objects/twins/kit/fidelity/declaration";
import { loadFidelity } from "../../scripts/fidelity-bundle.mjs";

const root = path.resolve(import.meta.dirname, "../..");

/** A tape row as `/_pome/events` serves it: what the checks read. */
export interface TapedAnswer {
  method: string;
  path: string;
  status: number;
  operation: string;
  fidelity: string;
  request_body: unknown;
  response_body: unknown;
}

/** What one tape's answers came to: the operations and statuses validated, what the vendor does not describe, every undeclared difference. */
export interface TapeVerdict {
  validated: string[];
  undescribed: string[];
  undeclared: string[];
}

type Measure = (rows: readonly TapedAnswer[]) => TapeVerdict;

const parsed = (v: unknown): unknown => {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

/**
 * An OpenAPI- or discovery-described twin: each answer against its operation's schema for its
 * status. A difference passes when the twin declares it, or when the twin shows it is the vendor's
 * (`explained`: a description older than the API the twin serves).
 */
function bySchema(check: Extract<AnswerCheck, { by: "schema" }>, fidelity: TwinFidelity): Measure {
  const { target, explained } = check;
  return (rows) => {
    const validated = new Set<string>();
    const out: TapeVerdict = { validated: [], undescribed: [], undeclared: [] };
    for (const row of rows) {
      if (row.fidelity === "unsupported") continue; // a 501 is the tier "501", not a shape
      const body = parsed(row.response_body);
      // A diff, a raw file or a redirect page: media types the JSON schemas do not describe.
      if (typeof body === "string") continue;
      const fail = (d: Difference) => {
        if (!declared(d, fidelity.divergences) && !explained?.(d, body))
          out.undeclared.push(`${d.operation} ${d.status}: ${d.kind} ${d.path} (${d.message})`);
      };
      const t = target(row.method, row.path, row.status, body, row.operation);
      if (!t) {
        out.undescribed.push(`${row.method} ${row.path} (${row.operation})`);
        continue;
      }
      if (!t.validate) {
        // Descriptions list most refusals without a body (GitHub's 404s and 422s): nothing to check
        // them against. A success answered with a body the vendor says it does not send is a difference.
        const empty = row.status === 204 || body === null || body === "" || body === undefined;
        if (!empty && row.status < 400)
          fail({ operation: t.operation, status: row.status, path: "/", kind: "status", message: `status ${row.status} has no schema` });
        continue;
      }
      validated.add(`${t.operation} ${row.status}`);
      if (t.validate(body) !== true)
        for (const d of differencesOf(t.operation, row.status, t.validate.errors ?? [], t.checkBranch)) fail(d);
      // Where the description records an example answer, the answer has its fields too.
      for (const d of exampleDifferences(t.operation, row.status, t.example, body)) fail(d);
    }
    out.validated = [...validated];
    return out;
  };
}

/** A GraphQL twin: each answer's `data` against the schema for the query that asked it. */
function byQuery(check: Extract<AnswerCheck, { by: "query" }>): Measure {
  return (rows) => {
    const out: TapeVerdict = { validated: [], undescribed: [], undeclared: [] };
    for (const row of rows) {
      const request = parsed(row.request_body) as { query?: unknown; operationName?: unknown } | undefined;
      const answer = parsed(row.response_body) as { data?: unknown } | undefined;
      if (typeof request?.query !== "string" || answer?.data === undefined || answer.data === null) continue;
      out.validated.push(row.operation);
      const name = typeof request.operationName === "string" ? request.operationName : undefined;
      for (const d of check.differences(request.query, answer.data, name))
        out.undeclared.push(`${row.operation}: ${d.kind} ${d.path} (${d.message})`);
    }
    return out;
  };
}

/** Every twin folder's measure, from its fidelity.ts: a twin is measured the day it lands. */
let measures: Promise<Map<string, Measure>> | undefined;
function measuresOf(): Promise<Map<string, Measure>> {
  measures ??= loadFidelity(root).then(({ declarations }) => {
    const out = new Map<string, Measure>();
    for (const [twin, fidelity] of Object.entries(declarations)) {
      let built: Measure | undefined;
      // Built on first use: compiling a description's schemas takes a moment.
      out.set(twin, (rows) => {
        if (!built) {
          const check = fidelity.answers(root);
          built = check.by === "schema" ? bySchema(check, fidelity) : byQuery(check);
        }
        return built(rows);
      });
    }
    return out;
  });
  return measures;
}

/** One twin's tape measured; `undefined` for a folder with no fidelity.ts (not a twin). */
export async function measureTape(twin: string, rows: readonly TapedAnswer[]): Promise<TapeVerdict | undefined> {
  return (await measuresOf()).get(twin)?.(rows);
}

/** The service binding: `POST { twin, rows }` → the tape's verdict, or 204 for a name that is no twin. */
export async function conformanceService(request: Request): Promise<Response> {
  const { twin, rows } = (await request.json()) as { twin: string; rows: TapedAnswer[] };
  const verdict = await measureTape(twin, rows);
  if (verdict && process.env.POME_CONFORMANCE_RECORD) {
    appendFileSync(process.env.POME_CONFORMANCE_RECORD, verdict.undeclared.map((d) => `${twin} ${d}\n`).join(""));
    verdict.undeclared = [];
  }
  return verdict ? Response.json(verdict) : new Response(null, { status: 204 });
}
