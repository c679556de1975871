// The Gmail twin's fidelity declaration (Node only: `npm run fidelity` reads it and writes
// FIDELITY.md beside it): where Gmail's published description is, which of its operations agents
// use, and where the twin's answers knowingly differ from it, each with its reason. The
// schema-conformance test (test/node/fidelity/) fails on any difference not declared here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { type ConformanceTarget, type Json, responseSchemas } from "../kit/fidelity/conformance";
import { readJson, servedByRoutes } from "../kit/fidelity/measure";
import type { AgentRelevantSet, Divergence, VendorDescription, VendorOperation } from "../kit/fidelity/types";
import type { TwinFidelity } from "../kit/fidelity/declaration";

/**
 * Gmail's discovery document (gmail-v1.json) is too large for this project's mirror to bring;
 * googleapis' generated client carries every method of it (id, HTTP method, path), so the list is
 * read from there: each `Resource$…` class is a discovery resource, each method a discovery method.
 */
const CLIENT_SOURCE = "node_modules/googleapis/build/src/apis/gmail/v1.js";
const CLIENT_TYPES = "node_modules/googleapis/build/src/apis/gmail/v1.d.ts";

/** The discovery id's resource path of a generated `Resource$…` class (`Resource$Users$Settings$Forwardingaddresses` → `users.settings.forwardingAddresses`). */
function resourcePaths(src: string): (cls: string) => string {
  // The discovery names of resources: `this.forwardingAddresses = new Resource$Users$Settings$Forwardingaddresses`.
  const resourceName = new Map<string, string>([["Resource$Users", "users"]]);
  for (const m of src.matchAll(/this\.(\w+)\s*=\s*new (Resource\$[\w$]+)\(/g)) resourceName.set(m[2], m[1]);
  return (cls) => {
    const parts = cls.split("$").slice(1);
    const names: string[] = [];
    for (let i = 1; i <= parts.length; i++)
      names.push(resourceName.get(`Resource$${parts.slice(0, i).join("$")}`) ?? parts[i - 1].toLowerCase());
    return names.join(".");
  };
}

function describe(root: string): VendorDescription {
  const src = readFileSync(path.join(root, CLIENT_SOURCE), "utf8");
  const idOf = resourcePaths(src);
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
  const pkg = readJson<{ version: string }>(root, "node_modules/googleapis/package.json");
  return {
    name: "Gmail API v1 discovery document (methods as googleapis generates them)",
    version: `gmail:v1 via googleapis ${pkg.version}`,
    source: "Google's discovery service, googleapis/google-api-nodejs-client, Apache-2.0",
    operations,
  };
}

/** Gmail's everyday calls, from Google's Node.js quickstart and the guides it links. */
const agentRelevant: AgentRelevantSet = {
  source:
    "Google's Gmail API Node.js quickstart (users.labels.list) and the Gmail guides it links for agents' everyday calls (sending, drafts, reading, searching, labelling messages and threads), and the calls behind the gmail tools of Google's Workspace MCP server (gemini-cli-extensions/workspace: messages.list, messages.get, messages.attachments.get, messages.modify, messages.send, drafts.create, drafts.send, labels.list), and the calls the twin makes for the tools of Google's hosted Gmail MCP server (gmailmcp.googleapis.com: threads.list, threads.get, threads.modify, threads.trash, messages.get, messages.modify, messages.trash, drafts.create, drafts.list, drafts.get, labels.list, labels.get, labels.create)",
  operations: [
    "gmail.users.labels.list",
    "gmail.users.getProfile",
    "gmail.users.messages.list",
    "gmail.users.messages.get",
    "gmail.users.messages.attachments.get",
    "gmail.users.messages.send",
    "gmail.users.messages.modify",
    "gmail.users.messages.trash",
    "gmail.users.drafts.create",
    "gmail.users.drafts.send",
    "gmail.users.threads.list",
    "gmail.users.threads.get",
    "gmail.users.threads.modify",
    "gmail.users.threads.trash",
    "gmail.users.drafts.list",
    "gmail.users.drafts.get",
    "gmail.users.labels.get",
    "gmail.users.labels.create",
  ],
};

export const divergences: readonly Divergence[] = [
  {
    operation: "gmail.users.settings.sendAs.verify",
    path: "/",
    kind: "shape",
    reason:
      "no verification mail is sent: an alias outside the mailbox's domain stays pending, and verifying it changes nothing (an alias that is not pending is refused 400 failedPrecondition, as Gmail requires)",
  },
  {
    operation: "gmail.users.settings.updateAutoForwarding",
    path: "/",
    kind: "shape",
    reason: "the setting is recorded (and graded), but no mail is actually forwarded",
  },
  {
    operation: "gmail.users.watch",
    path: "/",
    kind: "shape",
    reason:
      "the topic's existence and Gmail's right to publish to it are not checked; a reply is pushed with the next call rather than when it arrives, and failed pushes are retried by the platform's delivery mechanism",
  },
];

/** Why Gmail's other methods answer 501. */
const notImplemented: TwinFidelity["notImplemented"] = {
  byPrefix: {
    "gmail.users.settings.cse": "client-side encryption needs Google Workspace key services; not modelled",
    "gmail.users.settings.sendAs.smimeInfo": "S/MIME certificates are not modelled",
    "gmail.users.settings": "this mailbox setting is not built yet",
  },
  otherwise: "not built yet",
  // googleapis' transport (gaxios) retries a 5xx, so the twin's refusal is a 4xx a client gives up on.
  answer: "HTTP 404 with Google's error body, reason `notImplemented` (googleapis' transport retries any 5xx)",
};

/** A field type of googleapis' generated declarations as JSON Schema; every field may be null or absent. */
function fieldSchema(type: string): Json {
  const t = type.replace(/\s*\|\s*null$/, "").trim();
  if (t.endsWith("[]")) return { type: ["array", "null"], items: fieldSchema(t.slice(0, -2)) };
  if (t.startsWith("Schema$")) return { anyOf: [{ $ref: `#/definitions/${t.slice("Schema$".length)}` }, { type: "null" }] };
  if (t === "string" || t === "number" || t === "boolean") return { type: [t, "null"] };
  return {};
}

/**
 * Gmail's response schemas, read from googleapis' generated declarations of the discovery
 * document (each `Schema$X` interface is the discovery schema X, each method's promised
 * `Schema$Y` its response). Strict about extras: the discovery document lists every field Gmail sends.
 */
export function conformance(root: string) {
  const types = readFileSync(path.join(root, CLIENT_TYPES), "utf8");
  const definitions: { [key: string]: Json } = {};
  for (const m of types.matchAll(/export interface Schema\$(\w+) \{([\s\S]*?)\n {4}\}/g)) {
    const properties: { [key: string]: Json } = {};
    for (const f of m[2].matchAll(/^\s+(\w+)\?: ([^;]+);$/gm)) properties[f[1]] = fieldSchema(f[2]);
    definitions[m[1]] = { type: "object", properties, additionalProperties: false };
  }
  // The response of each method, by discovery id.
  const idOf = resourcePaths(readFileSync(path.join(root, CLIENT_SOURCE), "utf8"));
  const responses = new Map<string, string | null>();
  let cls = "";
  for (const t of types.matchAll(
    /export class (Resource\$[\w$]+) \{|^\s+(\w+)\(params\?: [\w$]+, options\?: MethodOptions\): Promise<GaxiosResponseWithHTTP2<(Schema\$(\w+)|void)>>;/gm,
  )) {
    if (t[1]) cls = t[1];
    else if (cls) responses.set(`gmail.${idOf(cls)}.${t[2]}`, t[4] ?? null);
  }
  const schemas = responseSchemas("https://schemas.pome.invalid/gmail.json", "definitions", { definitions }, true);
  return (_method: string, path: string, status: number, body: unknown, operation: string): ConformanceTarget | undefined => {
    if (!responses.has(operation)) return undefined;
    // Google's resumable upload protocol answers before the method does: the session's opening
    // (200, empty, its URI in Location) and an unfinished upload (308) carry no resource.
    const empty = body === "" || body === null || body === undefined;
    if (path.startsWith("/upload/") && (status === 308 || (status === 200 && empty))) return { operation, validate: null };
    if (status >= 400) return { operation, validate: schemas("error", GOOGLE_ERROR), checkBranch: schemas.checkBranch };
    const name = responses.get(operation);
    return { operation, validate: name ? schemas(operation, { $ref: `#/definitions/${name}` }) : null, checkBranch: schemas.checkBranch };
  };
}

/** Google's JSON error body (https://cloud.google.com/apis/design/errors#http_mapping), as googleapis reads it. */
const GOOGLE_ERROR: Json = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "status"],
      properties: {
        code: { type: "integer" },
        message: { type: "string" },
        status: { type: "string" },
        errors: {
          type: "array",
          items: {
            type: "object",
            properties: {
              message: { type: "string" },
              domain: { type: "string" },
              reason: { type: "string" },
              location: { type: "string" },
              locationType: { type: "string" },
            },
          },
        },
        details: { type: "array" },
      },
    },
  },
};

export const fidelity: TwinFidelity = {
  describe,
  answers: (root) => ({ by: "schema", target: conformance(root) }),
  agentRelevant,
  divergences,
  notImplemented,
  mcp: "`\u2026/mcp` serves the twin's own tools, named after the REST methods, plus composing tools (send, draft) that build the RFC 822 message. `\u2026/mcp/official` serves Google's own Gmail MCP tools from two servers, whose names do not collide, so both are listed: first the 13 tools of Google's hosted Gmail MCP server (gmailmcp.googleapis.com/mcp/v1, documented at developers.google.com/workspace/gmail/api/reference/mcp: create_draft, list_drafts, get_thread, get_message, search_threads, label_thread, unlabel_thread, apply_sensitive_thread_label, list_labels, label_message, unlabel_message, apply_sensitive_message_label, create_label), exactly as its unauthenticated tools/list answered on 2026-08-10 (names, descriptions, input and output schemas, annotations; the capture is pome-sh/digital-twins' at commit 204c5f6; Google states no licence for the definitions). Each is carried out as Gmail API calls over the mailbox and answers its output message as JSON (proto3 JSON: defaults left out, int64 as a string); a refusal is an MCP tool error (`isError: true`) with Gmail's message. Every one of the 13 works over what the twin models; where Google's descriptions leave behaviour open the twin settles it and NOTES.md lists how (list_drafts' default view is metadata only, as its enum says; create_draft's reply threads but does not quote the original; inline attachments are attached as files; label_thread and label_message refuse TRASH and SPAM, pointing to apply_sensitive_*_label). Then the eight gmail.* tools (gmail.search, gmail.get, gmail.downloadAttachment, gmail.modify, gmail.send, gmail.createDraft, gmail.sendDraft, gmail.listLabels) of the MCP server in Google's Workspace extension for Gemini CLI (gemini-cli-extensions/workspace, `workspace-server`, commit 7b49c39, Apache-2.0, Copyright 2025 Google LLC), exactly as its tools/list lists them. Each makes the googleapis call its GmailService makes and answers that service's text; gmail.downloadAttachment makes its attachments.get call but writes the file nowhere, since a sandbox has no machine of the agent's to write to (test/fixtures/vendor-mcp/gmail-hosted-server.json, test/fixtures/vendor-mcp/gmail-workspace-server.json, test/node/mcp/gmail-official-tools.test.ts).",
  // The twin's operation names are the discovery ids (its upload paths serve the same method).
  served: (routes, vendor) => servedByRoutes(routes, vendor, (r) => r.operation),
  callPattern: (op) => new RegExp(`\\.${op.replace(/^gmail\./, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\(`),
};
