// Node only (reads the vendors' descriptions from disk): every operation of each vendor's published
// description, matched to the twin's routes, with its tier, the tests that call it and the
// agent-relevant figures. `npm run fidelity` writes the result; test/node/fidelity/ checks it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { buildSchema, type GraphQLObjectType } from "graphql";
import { MUTATION_RESOLVERS } from "../../linear/resolvers/mutation";
import { QUERY_RESOLVERS } from "../../linear/resolvers/query";
import type { Route } from "../../types";
import { divergences as githubDivergences } from "../../github/fidelity";
import { divergences as gmailDivergences } from "../../gmail/fidelity";
import { divergences as linearDivergences } from "../../linear/fidelity";
import { divergences as slackDivergences } from "../../slack/fidelity";
import { divergences as stripeDivergences } from "../../stripe/fidelity";
import { AGENT_RELEVANT } from "./agent-relevant";
import { type Divergence, type FidelityOperation, type FidelityReport, coverageOf } from "./types";

/** One operation of a vendor's description. */
export interface VendorOperation {
  id: string;
  method: string;
  path: string;
}

export interface VendorDescription {
  name: string;
  version: string;
  source: string;
  operations: VendorOperation[];
}

/** Each twin's one declaration file of divergences; a twin without one fails the registry test. */
export const DIVERGENCES: Record<string, readonly Divergence[]> = {
  github: githubDivergences,
  stripe: stripeDivergences,
  slack: slackDivergences,
  gmail: gmailDivergences,
  linear: linearDivergences,
};

const read = (root: string, file: string) => readFileSync(path.join(root, file), "utf8");
const HTTP_METHODS = ["get", "post", "put", "patch", "delete", "head"];

function githubDescription(root: string): VendorDescription {
  const spec = JSON.parse(read(root, "node_modules/@octokit/openapi/generated/api.github.com.json")) as {
    info: { version: string };
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  const pkg = JSON.parse(read(root, "node_modules/@octokit/openapi/package.json")) as { version: string };
  const operations: VendorOperation[] = [];
  for (const [p, item] of Object.entries(spec.paths))
    for (const m of HTTP_METHODS) {
      const op = item[m];
      if (op?.operationId) operations.push({ id: op.operationId, method: m.toUpperCase(), path: p });
    }
  return {
    name: "GitHub REST API OpenAPI description (api.github.com)",
    version: `@octokit/openapi ${pkg.version} (info.version ${spec.info.version})`,
    source: "github/rest-api-description via npm @octokit/openapi, MIT",
    operations,
  };
}

/**
 * Stripe's spec3.json could not be brought into this project (its repository stores it outside
 * git's reach for the mirror this project uses), so the operation list is stripe-node's, which
 * is generated from that same spec ("File generated from our OpenAPI spec") for the API version it pins.
 */
function stripeDescription(root: string): VendorDescription {
  const dir = path.join(root, "node_modules/stripe/cjs/resources");
  const operations = new Map<string, VendorOperation>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".js")) {
        const src = readFileSync(full, "utf8");
        for (const m of src.matchAll(/_makeRequest\('([A-Z]+)', [`']([^`']+)[`']/g)) {
          const p = m[2].replace(/\$\{encodeURIComponent\((\w+)\)\}/g, "{$1}");
          const id = `${m[1]} ${p}`;
          operations.set(id, { id, method: m[1], path: p });
        }
      }
    }
  };
  walk(dir);
  const pkg = JSON.parse(read(root, "node_modules/stripe/package.json")) as { version: string };
  const api = /ApiVersion = '([^']+)'/.exec(read(root, "node_modules/stripe/cjs/apiVersion.js"));
  return {
    name: "Stripe API (operations of stripe-node, generated from stripe/openapi spec3.json)",
    version: `stripe-node ${pkg.version}, API version ${api ? api[1] : "unknown"}`,
    source: "stripe/stripe-node (generated from stripe/openapi), MIT",
    operations: [...operations.values()].sort((a, b) => a.id.localeCompare(b.id)),
  };
}

function slackDescription(root: string): VendorDescription {
  const spec = JSON.parse(read(root, "test/fixtures/service-specs/slack/slack_web_openapi_v2.json")) as {
    info: { version: string };
    paths: Record<string, Record<string, unknown>>;
  };
  const operations = Object.keys(spec.paths).map((p) => {
    const method = Object.keys(spec.paths[p]).find((m) => HTTP_METHODS.includes(m)) ?? "post";
    return { id: p.slice(1), method: method.toUpperCase(), path: `/api${p}` };
  });
  return {
    name: "Slack Web API OpenAPI (Swagger 2.0) description",
    version: `slackapi/slack-api-specs web-api/slack_web_openapi_v2.json, info.version ${spec.info.version}`,
    source: "slackapi/slack-api-specs, MIT",
    operations,
  };
}

/**
 * Gmail's discovery document (gmail-v1.json) is too large for this project's mirror to bring;
 * googleapis' generated client carries every method of it (id, HTTP method, path), so the list is
 * read from there: each `Resource$…` class is a discovery resource, each method a discovery method.
 */
function gmailDescription(root: string): VendorDescription {
  const src = read(root, "node_modules/googleapis/build/src/apis/gmail/v1.js");
  // The discovery names of resources: `this.forwardingAddresses = new Resource$Users$Settings$Forwardingaddresses`.
  const resourceName = new Map<string, string>([["Resource$Users", "users"]]);
  for (const m of src.matchAll(/this\.(\w+)\s*=\s*new (Resource\$[\w$]+)\(/g)) resourceName.set(m[2], m[1]);
  const idOf = (cls: string) => {
    const parts = cls.split("$").slice(1);
    const names: string[] = [];
    for (let i = 1; i <= parts.length; i++) {
      const key = `Resource$${parts.slice(0, i).join("$")}`;
      names.push(resourceName.get(key) ?? parts[i - 1].toLowerCase());
    }
    return names.join(".");
  };
  const operations: VendorOperation[] = [];
  let cls = "";
  let method = "";
  // One pass over the tokens in source order (long lines are wrapped, so not line by line).
  const tokens = /class (Resource\$[\w$]+) \{|^\s{8}(\w+)\(paramsOrCallback|url: \(rootUrl \+\s*'([^']+)'|method: '([A-Z]+)'/gm;
  for (const t of src.matchAll(tokens)) {
    if (t[1]) cls = t[1];
    else if (t[2]) method = t[2];
    else if (t[3] && cls && method) operations.push({ id: `gmail.${idOf(cls)}.${method}`, method: "", path: t[3] });
    else if (t[4] && operations.length && operations[operations.length - 1].method === "") operations[operations.length - 1].method = t[4];
  }
  const pkg = JSON.parse(read(root, "node_modules/googleapis/package.json")) as { version: string };
  return {
    name: "Gmail API v1 discovery document (methods as googleapis generates them)",
    version: `gmail:v1 via googleapis ${pkg.version}`,
    source: "Google's discovery service, googleapis/google-api-nodejs-client, Apache-2.0",
    operations,
  };
}

function linearDescription(root: string): VendorDescription {
  const schema = buildSchema(read(root, "test/fixtures/service-specs/linear-schema-88.3.0.graphql"), { assumeValidSDL: true });
  const fields = (t: GraphQLObjectType | null | undefined, kind: string) =>
    Object.keys(t?.getFields() ?? {}).map((f) => ({ id: f, method: kind, path: `/graphql ${kind} ${f}` }));
  return {
    name: "Linear GraphQL schema (SDL)",
    version: "@linear/sdk 88.3.0 schema.graphql",
    source: "linear/linear packages/sdk/src/schema.graphql, MIT",
    operations: [...fields(schema.getQueryType(), "query"), ...fields(schema.getMutationType(), "mutation")],
  };
}

export const DESCRIPTIONS: Record<string, (root: string) => VendorDescription> = {
  github: githubDescription,
  stripe: stripeDescription,
  slack: slackDescription,
  gmail: gmailDescription,
  linear: linearDescription,
};

/** `/repos/{owner}/{repo}` and `/repos/:owner/:repo` both become `/repos/{}/{}`. */
export const pathKey = (method: string, p: string) =>
  `${method.toUpperCase()} ${p
    .replace(/\{[^}]+\}/g, "{}")
    .replace(/:\w+/g, "{}")
    .replace(/\*\w+/g, "{}")
    .replace(/\/$/, "")}`;

/** Which vendor operation a twin route serves, by method and path template. */
function matchRoutes(twin: string, routes: readonly Route[], vendor: VendorDescription) {
  const served = new Map<string, Set<string>>();
  const unmatched = new Set<string>();
  const add = (id: string, op: string) => served.set(id, (served.get(id) ?? new Set()).add(op));
  if (twin === "linear") {
    const ids = new Set(vendor.operations.map((o) => o.id));
    // A root field the twin has a resolver for is served; any other answers 501 (linear/graphql.ts).
    for (const f of [...Object.keys(QUERY_RESOLVERS), ...Object.keys(MUTATION_RESOLVERS)]) {
      if (ids.has(f)) add(f, f);
      else unmatched.add(`${f} (a root field Linear's 88.3.0 schema lacks)`);
    }
    return { served, unmatched: [...unmatched] };
  }
  const byKey = new Map(vendor.operations.map((o) => [pathKey(o.method, o.path), o.id]));
  const ids = new Set(vendor.operations.map((o) => o.id));
  for (const r of routes) {
    // Slack's methods answer GET and POST alike; Gmail's upload paths serve the same method id.
    const direct = twin === "slack" ? r.pattern.replace(/^\/api\//, "") : twin === "gmail" ? r.operation : undefined;
    const id = direct && ids.has(direct) ? direct : byKey.get(pathKey(r.method, r.pattern));
    if (id) add(id, r.operation);
    else unmatched.add(`${r.method} ${r.pattern} (${r.operation})`);
  }
  return { served, unmatched: [...unmatched].sort() };
}

/** The test files that call an operation through the official client (or name a Linear root field). */
function testsCalling(root: string, twin: string): (twinOps: string[], id: string) => string[] {
  const files: { name: string; text: string }[] = [];
  for (const base of ["test/workers", "test/node"]) {
    const walk = (d: string) => {
      for (const e of readdirSync(path.join(root, d), { withFileTypes: true })) {
        const rel = `${d}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (/\.test\.(ts|mjs)$/.test(e.name) && !rel.includes("/fidelity/")) files.push({ name: rel, text: read(root, rel) });
      }
    };
    walk(base);
  }
  const own = files.filter((f) => f.name.includes(`/${twin}/`) || f.text.includes(twin));
  return (twinOps, id) => {
    const needles =
      twin === "linear"
        ? [new RegExp(`\\b${id}\\b`)]
        : twinOps.map((op) => {
            const call = twin === "gmail" ? op.replace(/^gmail\./, "") : op;
            const esc = call.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
            return twin === "slack" ? new RegExp(`\\.${esc}\\(|["'\`]${esc}["'\`]`) : new RegExp(`\\.${esc}\\(`);
          });
    return own
      .filter((f) => needles.some((n) => n.test(f.text)))
      .map((f) => f.name)
      .sort();
  };
}

const normalize = (id: string) => id.replace(/\{[^}]+\}/g, "{}");

export function measureTwin(root: string, twin: string, routes: readonly Route[], vendorName: string): FidelityReport {
  const describe = DESCRIPTIONS[twin];
  if (!describe) throw new Error(`no vendor description registered for twin "${twin}" (kit/fidelity/measure.ts)`);
  const declared = DIVERGENCES[twin];
  if (!declared) throw new Error(`twin "${twin}" has no durable-objects/twins/${twin}/fidelity.ts listed in kit/fidelity/measure.ts`);
  const vendor = describe(root);
  const { served, unmatched } = matchRoutes(twin, routes, vendor);
  const agent = new Set((AGENT_RELEVANT[twin]?.operations ?? []).map(normalize));
  // A misspelt agent-relevant id would silently shrink the set: refuse it.
  const known = new Set(vendor.operations.map((o) => normalize(o.id)));
  const unknown = [...agent].filter((id) => !known.has(id));
  if (unknown.length) throw new Error(`${twin}: agent-relevant operations not in the description: ${unknown.join(", ")}`);
  const tests = testsCalling(root, twin);
  const operations: FidelityOperation[] = vendor.operations.map((o) => {
    const twinOperations = [...(served.get(o.id) ?? [])].sort();
    // Divergences declared for every operation (`*`: a shared error shape) are listed apart, not per operation.
    const divs = declared.filter((d) => d.operation === o.id).map(({ path: p, kind, reason }) => ({ path: p, kind, reason }));
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
    };
  });
  return {
    twin,
    vendor: vendorName,
    description: { name: vendor.name, version: vendor.version, source: vendor.source },
    agentRelevantSource: AGENT_RELEVANT[twin]?.source ?? "none recorded",
    coverage: { all: coverageOf(operations), agentRelevant: coverageOf(operations.filter((o) => o.agentRelevant)) },
    operations,
    sharedDivergences: declared.filter((d) => d.operation === "*").map(({ operation: _all, ...rest }) => rest),
    unmatchedTwinOperations: unmatched,
  };
}
