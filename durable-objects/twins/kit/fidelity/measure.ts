// Node only (reads descriptions and tests from disk): every operation of a vendor's published
// description, matched to the twin's routes, with its tier, the tests that call it and the
// agent-relevant figures. `npm run fidelity` writes the result; test/node/fidelity/ checks it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  type FidelityOperation,
  type FidelityReport,
  type RouteShape,
  type ServedOperations,
  type VendorDescription,
  coverageOf,
} from "./types";
import type { TwinFidelity } from "./declaration";

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete", "head"];

/** A JSON file of the repository at `root`. */
export const readJson = <T>(root: string, file: string): T => JSON.parse(readFileSync(path.join(root, file), "utf8")) as T;

/** Every operation of an OpenAPI (or Swagger) description that names its operations. */
export function openApiOperations(paths: Record<string, Record<string, { operationId?: string }>>) {
  const operations: { id: string; method: string; path: string }[] = [];
  for (const [p, item] of Object.entries(paths))
    for (const m of HTTP_METHODS) {
      const op = item[m];
      if (op?.operationId) operations.push({ id: op.operationId, method: m.toUpperCase(), path: p });
    }
  return operations;
}

/** `/repos/{owner}/{repo}` and `/repos/:owner/:repo` both become `/repos/{}/{}`. */
export const pathKey = (method: string, p: string) =>
  `${method.toUpperCase()} ${p
    .replace(/\{[^}]+\}/g, "{}")
    .replace(/:\w+/g, "{}")
    .replace(/\*\w+/g, "{}")
    .replace(/\/$/, "")}`;

/**
 * The default matching: a route serves the operation with its method and path template, or the
 * one `direct` names (for descriptions whose ids are the twin's operation or path).
 */
export function servedByRoutes(
  routes: readonly RouteShape[],
  vendor: VendorDescription,
  direct: (route: RouteShape) => string | undefined = () => undefined,
): ServedOperations {
  const served = new Map<string, Set<string>>();
  const unmatched = new Set<string>();
  const byKey = new Map(vendor.operations.map((o) => [pathKey(o.method, o.path), o.id]));
  const ids = new Set(vendor.operations.map((o) => o.id));
  for (const r of routes) {
    const named = direct(r);
    const id = named && ids.has(named) ? named : byKey.get(pathKey(r.method, r.pattern));
    if (id) served.set(id, (served.get(id) ?? new Set()).add(r.operation));
    else unmatched.add(`${r.method} ${r.pattern} (${r.operation})`);
  }
  return { served, unmatched: [...unmatched].sort() };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** `.issues.get(`, white space allowed around each dot: the formatter splits a long call chain over lines. */
export const defaultCallPattern = (twinOperation: string) =>
  new RegExp(`\\.\\s*${twinOperation.split(".").map(escapeRegExp).join("\\s*\\.\\s*")}\\s*\\(`);

/** The test files of this twin (its folders, or naming it) that call an operation. */
function testsCalling(root: string, twin: string, spec: TwinFidelity): (twinOps: string[], id: string) => string[] {
  const files: { name: string; text: string }[] = [];
  for (const base of ["test/workers", "test/node"]) {
    const walk = (d: string) => {
      for (const e of readdirSync(path.join(root, d), { withFileTypes: true })) {
        const rel = `${d}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (/\.test\.(ts|mjs)$/.test(e.name) && !rel.includes("/fidelity/"))
          files.push({ name: rel, text: readFileSync(path.join(root, rel), "utf8") });
      }
    };
    walk(base);
  }
  const own = files.filter((f) => f.name.includes(`/${twin}/`) || f.text.includes(twin));
  const pattern = spec.callPattern ?? defaultCallPattern;
  return (twinOps, id) => {
    const needles = twinOps.map((op) => pattern(op, id));
    return own
      .filter((f) => needles.some((n) => n.test(f.text)))
      .map((f) => f.name)
      .sort();
  };
}

const normalize = (id: string) => id.replace(/\{[^}]+\}/g, "{}");

/** The declared reason for an operation the twin does not serve: the longest prefix of its id or path, else the default. */
export function notImplementedReason(op: { id: string; path: string }, declared: TwinFidelity["notImplemented"]): string {
  let best = "";
  for (const prefix of Object.keys(declared.byPrefix))
    if ((op.id.startsWith(prefix) || op.path.startsWith(prefix)) && prefix.length > best.length) best = prefix;
  return best ? declared.byPrefix[best] : declared.otherwise;
}

export function measureTwin(
  root: string,
  twin: string,
  routes: readonly RouteShape[],
  vendorName: string,
  spec: TwinFidelity,
): FidelityReport {
  const vendor = spec.describe(root);
  const { served, unmatched } = spec.served ? spec.served(routes, vendor) : servedByRoutes(routes, vendor);
  const agent = new Set(spec.agentRelevant.operations.map(normalize));
  // A misspelt agent-relevant id would silently shrink the set: refuse it.
  const known = new Set(vendor.operations.map((o) => normalize(o.id)));
  const unknown = [...agent].filter((id) => !known.has(id));
  if (unknown.length) throw new Error(`${twin}: agent-relevant operations not in the description: ${unknown.join(", ")}`);
  const tests = testsCalling(root, twin, spec);
  const operations: FidelityOperation[] = vendor.operations.map((o) => {
    const twinOperations = [...(served.get(o.id) ?? [])].sort();
    // Divergences declared for every operation (`*`: a shared error shape) are listed apart, not per operation.
    const divs = spec.divergences.filter((d) => d.operation === o.id).map(({ path: p, kind, reason }) => ({ path: p, kind, reason }));
    const tier = !twinOperations.length ? "501" : divs.length ? "divergent" : "conformant";
    return {
      id: o.id,
      method: o.method,
      path: o.path,
      tier,
      twinOperations,
      tests: twinOperations.length ? tests(twinOperations, o.id) : [],
      agentRelevant: agent.has(normalize(o.id)),
      divergences: divs,
      ...(tier === "501" ? { reason: notImplementedReason(o, spec.notImplemented) } : {}),
    };
  });
  return {
    twin,
    vendor: vendorName,
    description: { name: vendor.name, version: vendor.version, source: vendor.source },
    agentRelevantSource: spec.agentRelevant.source,
    coverage: { all: coverageOf(operations), agentRelevant: coverageOf(operations.filter((o) => o.agentRelevant)) },
    operations,
    sharedDivergences: spec.divergences.filter((d) => d.operation === "*").map(({ operation: _all, ...rest }) => rest),
    unmatchedTwinOperations: unmatched,
    mcp: spec.mcp,
    notImplementedAnswer: spec.notImplemented.answer ?? "HTTP 501 in the vendor's error shape",
  };
}
