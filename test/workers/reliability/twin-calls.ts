// What the property suites over the registry share: values of a twin's default world that path
// parameters name, the vendor's error shape, a sandbox's exported state, and timed calls with the
// slowest one kept per twin (printed, so the README's bound can cite what was measured).
import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import type { TwinId } from "../../../durable-objects/twins/registry";
import type { TwinDefinition } from "../../../durable-objects/twins/types";
import type { CreatedSandbox } from "../helpers";

/** Values of the default world a path parameter most likely names, found by key in the seed. */
export function goodValues(twin: TwinDefinition): Record<string, string> {
  const found: Record<string, string> = {};
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if ((typeof v === "string" || typeof v === "number") && found[k] === undefined) found[k] = String(v);
        visit(v);
      }
    }
  };
  visit(twin.defaultSeed());
  const alias: Record<string, string | undefined> = {
    repo: found.name,
    username: found.login,
    org: found.owner,
    assignee: found.login,
    branch: found.default_branch,
    ref: found.default_branch,
  };
  const out: Record<string, string> = { ...found };
  for (const [k, v] of Object.entries(alias)) if (v !== undefined) out[k] = v;
  for (const k of Object.keys(found)) {
    out[`${k}_number`] ??= found.number;
    out[`${k}_id`] ??= found.id;
  }
  out.path ??= "README.md";
  out.userId ??= "me";
  return out;
}

/** The vendor's error shape: JSON, not the control plane's envelope, sharing a key with the twin's own refusals. */
export function expectVendorShape(twin: TwinDefinition, status: number, text: string, contentType = "application/json") {
  // A vendor may refuse in plain text (Slack's file downloads); only JSON refusals have a shape to match.
  if (!contentType.includes("json")) return;
  const own = JSON.parse(twin.errors.unauthorized("x").body) as Record<string, unknown>;
  let body: unknown;
  expect(() => (body = JSON.parse(text)), `HTTP ${status} body is not JSON: ${text.slice(0, 200)}`).not.toThrow();
  expect(typeof body === "object" && body !== null && !Array.isArray(body)).toBe(true);
  const keys = Object.keys(body as object);
  // OAuth endpoints answer in OAuth's own error shape (RFC 6749 §5.2), whatever the vendor's API uses.
  const oauth =
    typeof (body as { error?: unknown }).error === "string" && keys.every((k) => ["error", "error_description", "error_uri"].includes(k));
  expect(oauth || keys.some((k) => k in own), `HTTP ${status} body ${text.slice(0, 200)} is not in the ${twin.id} shape`).toBe(true);
  const envelope = (body as { error?: { request_id?: unknown } }).error;
  expect(typeof envelope === "object" && envelope !== null && "request_id" in envelope, "the control plane's envelope on a twin URL").toBe(
    false,
  );
}

/** The twin's world as `/_pome/state` serves it. */
export const stateOf = async (sandbox: CreatedSandbox, id: TwinId) =>
  (await SELF.fetch(`${sandbox.per_twin[id].api_url}/_pome/state`, { headers: { authorization: `Bearer ${sandbox.agent_token}` } })).text();

/**
 * Whether an answer refused the call: an HTTP error, Slack's `{"ok":false}` on 200, a GraphQL answer
 * with errors and no data, or a JSON-RPC answer whose every message is an error.
 */
export function refused(status: number, text: string): boolean {
  if (status >= 400) return true;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  const one = (b: unknown): boolean => {
    if (typeof b !== "object" || b === null) return false;
    const o = b as { ok?: unknown; errors?: unknown; data?: unknown; error?: unknown; result?: { isError?: unknown } };
    return (
      o.ok === false ||
      (Array.isArray(o.errors) && (o.data === null || o.data === undefined)) ||
      o.error !== undefined ||
      o.result?.isError === true
    );
  };
  return Array.isArray(body) ? body.length > 0 && body.every(one) : one(body);
}

export interface Timed {
  status: number;
  text: string;
  contentType: string;
  ms: number;
}

/**
 * One call, timed from the request to the last byte of its answer. The Workers runtime only moves
 * its clock on I/O, and every call here is I/O to the router and the sandbox's Durable Object (in
 * this same process), so the difference is the call's wall time, its CPU included.
 */
export async function timedFetch(url: string, init: RequestInit): Promise<Timed> {
  const started = performance.now();
  const res = await SELF.fetch(url, init);
  const text = await res.text();
  return { status: res.status, text, contentType: res.headers.get("content-type") ?? "", ms: performance.now() - started };
}

/** The slowest call seen per twin, and what it was. */
export class Slowest {
  private readonly worst = new Map<string, { ms: number; what: string }>();

  note(twin: string, ms: number, what: string) {
    const seen = this.worst.get(twin);
    if (!seen || ms > seen.ms)
      this.worst.set(twin, { ms, what: what.length > 240 ? `${what.slice(0, 240)}… (${what.length} chars)` : what });
  }

  get(twin: string) {
    return this.worst.get(twin);
  }

  /** One line per twin, for the test's output (the README cites the slowest call found). */
  report(title: string): string {
    const lines = [...this.worst.entries()].map(([twin, { ms, what }]) => `  ${twin}: ${ms.toFixed(1)} ms, ${what}`);
    return `${title}\n${lines.join("\n")}`;
  }
}
