// The Linear twin's fidelity declaration (Node only: `npm run fidelity` reads it and writes
// FIDELITY.md beside it): where Linear's published description is, which of its operations agents
// use, and where the twin's answers knowingly differ from it, each with its reason. The
// schema-conformance test (test/node/fidelity/) fails on any difference not declared here.
import type { GraphQLObjectType } from "graphql";
import type { AgentRelevantSet, Divergence, ServedOperations, VendorDescription } from "../kit/fidelity/types";
import type { TwinFidelity } from "../kit/fidelity/declaration";
import { answerDifferences, linearSchema } from "./answer-conformance";
import { MUTATION_RESOLVERS, QUERY_RESOLVERS } from "./schema";

function describe(root: string): VendorDescription {
  const schema = linearSchema(root);
  const fields = (t: GraphQLObjectType | null | undefined, kind: string) =>
    Object.keys(t?.getFields() ?? {}).map((f) => ({ id: f, method: kind, path: `/graphql ${kind} ${f}` }));
  return {
    name: "Linear GraphQL schema (SDL)",
    version: "@linear/sdk 88.3.0 schema.graphql",
    source: "linear/linear packages/sdk/src/schema.graphql, MIT",
    operations: [...fields(schema.getQueryType(), "query"), ...fields(schema.getMutationType(), "mutation")],
  };
}

/** Linear's official MCP server's tools, and @linear/sdk's quickstart. */
const agentRelevant: AgentRelevantSet = {
  source:
    "Linear's official MCP server (mcp.linear.app: list/get/create/update issues, comments, projects, teams, users, issue statuses, labels, cycles, documents) and the @linear/sdk README quickstart (viewer, viewer.assignedIssues)",
  operations: [
    "viewer",
    "issues",
    "issue",
    "issueCreate",
    "issueUpdate",
    "comments",
    "commentCreate",
    "projects",
    "project",
    "projectCreate",
    "projectUpdate",
    "teams",
    "team",
    "users",
    "user",
    "workflowStates",
    "issueLabels",
    "issueLabelCreate",
    "cycles",
    "documents",
    "document",
  ],
};

export const divergences: readonly Divergence[] = [
  {
    operation: "issueUpdate",
    path: "/",
    kind: "shape",
    reason:
      "a move to another team maps the state by name (else the first of its type, else the default) and labels by name, clears the cycle, and keeps sub-issues in their team: Linear does not document these rules; history has one entry per call where Linear groups close changes",
  },
  {
    operation: "rateLimitStatus",
    path: "/rateLimitStatus/limits/*/type",
    kind: "shape",
    reason: "the kind and type strings (apiKey/oauthApp, requestCount/complexity) are the twin's own: Linear does not publish them",
  },
  {
    operation: "issueBatchCreate",
    path: "/",
    kind: "shape",
    reason: "at most 50 issues per call is the twin's own cap; Linear publishes none",
  },
];

/** A root field the twin has a resolver for is served; any other answers 501 (graphql.ts). */
function served(_routes: unknown, vendor: VendorDescription): ServedOperations {
  const ids = new Set(vendor.operations.map((o) => o.id));
  const out: ServedOperations = { served: new Map(), unmatched: [] };
  for (const f of [...Object.keys(QUERY_RESOLVERS), ...Object.keys(MUTATION_RESOLVERS)])
    if (ids.has(f)) out.served.set(f, new Set([f]));
    else out.unmatched.push(`${f} (a root field the schema lacks)`);
  out.unmatched.sort();
  return out;
}

/** Why Linear's other root fields answer 501, by name. */
const notImplemented: TwinFidelity["notImplemented"] = {
  byPrefix: {
    organization: "workspace administration (domains, invites, import, deletion) is not modelled",
    integration: "third-party integrations (Slack, GitHub, Figma, ...) connect to services outside the sandbox",
    oauth: "OAuth application management is outside a sandbox",
    apiKey: "API key management is outside a sandbox",
    webhook: "webhook management by API is not built yet",
    cycle: "this cycle operation is not built yet",
    initiative: "initiative labels, relations, status updates, links and sub-initiatives are not built yet",
    customView: "view preferences, subscriptions and AI suggestions for custom views are not modelled",
    favorite: "favorites are not built yet",
    template: "integration templates and template search are not modelled",
    projectUpdateReminder: "project update reminders are not built yet",
    notificationSubscription: "notification subscriptions are not built yet",
    notificationCategoryChannel: "notification channel preferences are not modelled",
    roadmap: "roadmaps are retired by Linear in favour of initiatives",
    customer: "customer requests are not modelled",
    emoji: "custom emoji are not modelled",
    entityExternalLink: "external links are not built yet",
    attachment: "this attachment operation is not built yet",
    user: "user administration (suspend, admin, settings) is not modelled",
  },
  otherwise: "not built yet",
};

export const fidelity: TwinFidelity = {
  describe,
  answers: (root) => {
    const schema = linearSchema(root);
    return { by: "query", differences: (query, data, operationName) => answerDifferences(schema, query, data, operationName) };
  },
  agentRelevant,
  divergences,
  notImplemented,
  mcp: "`\u2026/mcp` serves the twin's own tools, each one GraphQL operation with its arguments derived from the SDL. `\u2026/mcp/official` serves the tool set of Linear's own hosted MCP server (mcp.linear.app/mcp), all 58 tools exactly as its `tools/list` answered under a `read write` OAuth grant on 2026-08-10 (names, titles, descriptions, input schemas, annotations, `_meta`), from the capture in the public repository pome-sh/digital-twins (fixtures/mcp-tools-list/linear.raw.json at commit 7f909bbdcac94e17da0c68b13b7feefd0e3feaad, sha256 c737b527\u2026465a); the definitions are Linear's and Linear states no licence for them (test/fixtures/vendor-mcp/linear-hosted-server.json). Linear publishes neither the server's source nor its answers' shapes: each tool runs as GraphQL calls through the twin's own resolvers (names, keys, emails, slugs and \"me\" resolved as the tool descriptions say) and answers one JSON text in Linear's field names (NOTES.md). 33 tools run over the twin's world (issues, comments on issues, cycles, documents, issue labels and statuses, projects, milestones, project status updates, initiatives, teams, users, the workspace, attachments by URL). 25 answer an MCP tool error (`isError: true`) naming what the twin does not model: releases, release pipelines and release notes (list_release_pipelines, list_releases, get_release, save_release, list_release_notes, get_release_note, save_release_note); code diffs and their reviews (get_diff, list_diffs, get_diff_threads, save_diff_comment, resolve_diff_thread, delete_diff_comment, submit_diff_review, merge_diff); agent skills (list_agent_skills, get_agent_skill); Linear's documentation (search_documentation); file uploads and stored files (prepare_attachment_upload, create_attachment, extract_images); attachment deletion (delete_attachment: attachmentDelete is not served); project labels (list_project_labels); initiative labels (list_initiative_labels, create_initiative_label). Within the modelled tools, arguments over unmodelled areas answer the same error: comments on projects, initiatives, documents, milestones or status updates; initiative status updates; releases and customer needs on issues; project summaries, labels, members and links; project fields the twin's projectCreate/projectUpdate do not take (icon, color, dates and priority answer the twin's refusal naming the input field; `state` moves a project only to started, completed or canceled); sub- and parent initiatives (test/node/mcp/linear-official-tools.test.ts).",
  served,
  // Tests name a root field in their GraphQL documents or call the SDK's method of the same name.
  callPattern: (_op, id) => new RegExp(`\\b${id}\\b`),
};
