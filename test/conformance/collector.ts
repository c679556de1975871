// Every answer the workers tests get from a twin, checked against the vendor's published schema.
// The tests run inside workerd, where Ajv cannot compile (it needs `new Function`); this module
// runs in Node, as a Miniflare service binding (`CONFORMANCE`, vitest.config.ts) that
// test/workers/setup.ts calls after each test with the tapes of the sandboxes the test made.
// Each row is measured the way test/node/fidelity/conformance.test.ts measures scripted sessions;
// a difference the twin does not declare in its fidelity.ts comes back to fail the test.
import { appendFileSync } from "node:fs";
import path from "node:path";
import { type ConformanceTarget, type Difference, declared, differencesOf } from "../../durable-objects/twins/kit/fidelity/conformance";
import type { Divergence } from "../../durable-objects/twins/kit/fidelity/types";
import { conformance as githubConformance, divergences as githubDivergences } from "../../durable-objects/twins/github/fidelity";
import { conformance as gmailConformance, divergences as gmailDivergences } from "../../durable-objects/twins/gmail/fidelity";
import { answerDifferences, linearSchema } from "../../durable-objects/twins/linear/answer-conformance";
import { conformance as slackConformance, divergences as slackDivergences } from "../../durable-objects/twins/slack/fidelity";

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

type Target = (method: string, path: string, status: number, body: unknown, operation: string) => ConformanceTarget | undefined;
type Measure = (rows: readonly TapedAnswer[]) => TapeVerdict;

const parsed = (v: unknown): unknown => {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

/** An OpenAPI- or discovery-described twin: each answer against its operation's schema for its status. */
function bySchema(target: Target, divergences: readonly Divergence[]): Measure {
  return (rows) => {
    const validated = new Set<string>();
    const out: TapeVerdict = { validated: [], undescribed: [], undeclared: [] };
    const fail = (d: Difference) => {
      if (!declared(d, divergences)) out.undeclared.push(`${d.operation} ${d.status}: ${d.kind} ${d.path} (${d.message})`);
    };
    for (const row of rows) {
      if (row.fidelity === "unsupported") continue; // a 501 is the tier "501", not a shape
      const body = parsed(row.response_body);
      // A diff, a raw file or a redirect page: media types the JSON schemas do not describe.
      if (typeof body === "string") continue;
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
    }
    out.validated = [...validated];
    return out;
  };
}

/** A GraphQL twin: each answer's `data` against the schema for the query that asked it. */
function byQuery(): Measure {
  const schema = linearSchema(root);
  return (rows) => {
    const out: TapeVerdict = { validated: [], undescribed: [], undeclared: [] };
    for (const row of rows) {
      const request = parsed(row.request_body) as { query?: unknown; operationName?: unknown } | undefined;
      const answer = parsed(row.response_body) as { data?: unknown } | undefined;
      if (typeof request?.query !== "string" || answer?.data === undefined || answer.data === null) continue;
      out.validated.push(row.operation);
      const name = typeof request.operationName === "string" ? request.operationName : undefined;
      for (const d of answerDifferences(schema, request.query, answer.data, name))
        out.undeclared.push(`${row.operation}: ${d.kind} ${d.path} (${d.message})`);
    }
    return out;
  };
}

/** The twins measured here; a twin missing from this list is named in the answer, not passed. */
const measures: Record<string, () => Measure> = {
  github: () => bySchema(githubConformance(root), githubDivergences),
  slack: () => bySchema(slackConformance(root), slackDivergences),
  gmail: () => bySchema(gmailConformance(root), gmailDivergences),
  linear: byQuery,
};
const built = new Map<string, Measure>();

/** One twin's tape measured; `undefined` for a twin with no published schema measured here. */
export function measureTape(twin: string, rows: readonly TapedAnswer[]): TapeVerdict | undefined {
  const make = measures[twin];
  if (!make) return undefined;
  let measure = built.get(twin);
  if (!measure) {
    measure = make();
    built.set(twin, measure);
  }
  return measure(rows);
}

/** The service binding: `POST { twin, rows }` → the tape's verdict, or 204 for an unmeasured twin. */
export async function conformanceService(request: Request): Promise<Response> {
  const { twin, rows } = (await request.json()) as { twin: string; rows: TapedAnswer[] };
  const verdict = measureTape(twin, rows);
  if (verdict && process.env.POME_CONFORMANCE_RECORD) {
    appendFileSync(process.env.POME_CONFORMANCE_RECORD, verdict.undeclared.map((d) => `${twin} ${d}\n`).join(""));
    verdict.undeclared = [];
  }
  return verdict ? Response.json(verdict) : new Response(null, { status: 204 });
}
