// Repository webhooks: create, read, update, delete, ping, test, and the delivery log (list, get,
// redeliver). A hook's URL must be one the platform's egress policy lets deliveries reach; any
// other is GitHub's 422 "Validation Failed" for the Hook, and nothing is stored.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { repoParams, route } from "../declare";
import { fail, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import {
  type DeliveryRow,
  type HookInput,
  type HookRow,
  createHook,
  deleteHook,
  eventsOf,
  findDelivery,
  findHook,
  listDeliveries,
  listHooks,
  updateHook,
} from "../store/hooks";
import { deliverTo } from "../webhooks";

const hookId = z.number().int().positive().describe("The hook's id (from list_repo_hooks)");
const deliveryId = z.number().int().positive().describe("The delivery's id (from list_hook_deliveries)");

const config = z
  .object({
    url: z.string().optional().describe("Where deliveries are POSTed"),
    content_type: z.enum(["json", "form"]).optional().describe("json or form (default form)"),
    secret: z.string().optional().describe("The key of each delivery's X-Hub-Signature-256 HMAC"),
    insecure_ssl: z.union([z.string(), z.number()]).optional().describe('"0" (verify TLS, default) or "1"'),
  })
  .describe("The hook's configuration: url, content_type, secret, insecure_ssl");

const hookBody = {
  name: z.string().optional().describe('Always "web"'),
  config: config.optional(),
  events: z
    .array(z.string().min(1))
    .optional()
    .describe('The events that trigger it, e.g. ["push", "issues"] (default ["push"]; "*" for all)'),
  add_events: z.array(z.string().min(1)).optional().describe("Events to add (update only)"),
  remove_events: z.array(z.string().min(1)).optional().describe("Events to remove (update only)"),
  active: z.boolean().optional().describe("Whether deliveries are sent (default true)"),
};

const refuse = (message: string) => fail(ghValidationFailed([{ resource: "Hook", code: "custom", message }]));

/** The hook an input describes, its URL checked against the platform's egress policy. */
function hookInput(ctx: TwinContext, body: z.output<z.ZodObject<typeof hookBody>>, before?: HookRow): HookInput {
  const url = body.config?.url ?? before?.url ?? refuse("Config must contain url.");
  if (!URL.canParse(url)) refuse("Config url is not a valid URL.");
  const verdict = ctx.egress(url);
  if (!verdict.allowed) refuse(`Config url is not allowed: ${verdict.reason}.`);
  let events = body.events ?? (before ? eventsOf(before) : ["push"]);
  events = [...new Set([...events, ...(body.add_events ?? [])])].filter((e) => !(body.remove_events ?? []).includes(e));
  return {
    url,
    content_type: body.config?.content_type ?? before?.content_type ?? "form",
    secret: body.config?.secret !== undefined ? body.config.secret || null : (before?.secret ?? null),
    insecure_ssl: body.config?.insecure_ssl !== undefined ? String(body.config.insecure_ssl) : (before?.insecure_ssl ?? "0"),
    events,
    active: body.active ?? (before ? before.active === 1 : true),
  };
}

export function hookObject(v: View, r: RepoRow, h: HookRow) {
  const url = v.repoApi(r, `/hooks/${h.id}`);
  const last = h.last_response ? (JSON.parse(h.last_response) as { code: number | null; status: string; message: string | null }) : null;
  return {
    type: "Repository",
    id: h.id,
    name: "web",
    active: h.active === 1,
    events: eventsOf(h),
    config: {
      content_type: h.content_type,
      insecure_ssl: h.insecure_ssl,
      url: h.url,
      // GitHub never shows a secret back.
      ...(h.secret ? { secret: "********" } : {}),
    },
    updated_at: h.updated_at,
    created_at: h.created_at,
    url,
    test_url: `${url}/test`,
    ping_url: `${url}/pings`,
    deliveries_url: `${url}/deliveries`,
    last_response: last ?? { code: null, status: "unused", message: null },
  };
}

function deliveryItem(d: DeliveryRow) {
  return {
    id: d.id,
    guid: d.guid,
    delivered_at: d.delivered_at,
    redelivery: d.redelivery === 1,
    duration: d.duration,
    status: d.status,
    status_code: d.status_code,
    event: d.event,
    action: d.action,
    installation_id: null,
    repository_id: d.repo_id,
    throttled_at: null,
  };
}

const requireHook = (ctx: TwinContext, repo: RepoRow, id: number) => findHook(ctx.db, repo.id, id) ?? fail(ghNotFound());

const hookParams = { ...repoParams, hook_id: hookId };

/** The `ping` GitHub sends when a hook is created or pinged. */
function ping(ctx: TwinContext, repo: RepoRow, hook: HookRow) {
  const v = new View(ctx);
  const payload = JSON.stringify({
    zen: "Keep it logically awesome.",
    hook_id: hook.id,
    hook: hookObject(v, repo, hook),
    repository: v.repository(repo),
    sender: v.user(v.actor),
  });
  deliverTo(ctx, hook, "ping", null, payload);
}

const crudRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/hooks",
    operation: "repos.listWebhooks",
    summary: "List repository webhooks",
    params: repoParams,
    tool: { name: "list_repo_hooks", description: "List the repository's webhooks: url, events, active, last response." },
    handler(ctx) {
      const repo = requireRepo(ctx);
      const page = pageOf(ctx);
      const { rows, total } = listHooks(ctx.db, repo.id, page.limit, page.offset);
      const v = new View(ctx);
      return paged(
        ctx,
        rows.map((h) => hookObject(v, repo, h)),
        page,
        total,
        repo.id,
      );
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/hooks",
    operation: "repos.createWebhook",
    summary: "Create a repository webhook",
    resource: "Hook",
    params: repoParams,
    body: hookBody,
    tool: { name: "create_repo_hook", description: "Create a webhook: config.url receives the events listed (signed with config.secret)." },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const hook = createHook(storeOf(ctx), repo.id, hookInput(ctx, body));
      // GitHub pings a new hook at once.
      ping(ctx, repo, hook);
      const out = hookObject(new View(ctx), repo, findHook(ctx.db, repo.id, hook.id) ?? hook);
      return ok(out, 201, { location: out.url });
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/hooks/:hook_id",
    operation: "repos.getWebhook",
    summary: "Get a repository webhook",
    params: hookParams,
    tool: { name: "get_repo_hook", description: "Get one webhook of the repository." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      return ok(hookObject(new View(ctx), repo, requireHook(ctx, repo, params.hook_id)));
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/hooks/:hook_id",
    operation: "repos.updateWebhook",
    summary: "Update a repository webhook",
    resource: "Hook",
    params: hookParams,
    body: hookBody,
    tool: { name: "update_repo_hook", description: "Change a webhook's url, secret, events (or add_events/remove_events) or active flag." },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const hook = requireHook(ctx, repo, params.hook_id);
      return ok(hookObject(new View(ctx), repo, updateHook(storeOf(ctx), hook, hookInput(ctx, body, hook))));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/hooks/:hook_id",
    operation: "repos.deleteWebhook",
    summary: "Delete a repository webhook",
    params: hookParams,
    tool: { name: "delete_repo_hook", description: "Delete a webhook; no more deliveries are sent to it." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      deleteHook(ctx.db, requireHook(ctx, repo, params.hook_id));
      return ghNoContent();
    },
  }),
];

const deliveryRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/hooks/:hook_id/pings",
    operation: "repos.pingWebhook",
    summary: "Ping a repository webhook",
    params: hookParams,
    tool: { name: "ping_repo_hook", description: "Send the webhook a ping event to check that its URL receives deliveries." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      ping(ctx, repo, requireHook(ctx, repo, params.hook_id));
      return ghNoContent();
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/hooks/:hook_id/tests",
    operation: "repos.testPushWebhook",
    summary: "Test the push repository webhook",
    params: hookParams,
    tool: {
      name: "test_repo_hook",
      description: "Send the hook a push event for the default branch's latest commit, if it subscribes to push.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const hook = requireHook(ctx, repo, params.hook_id);
      if (eventsOf(hook).some((e) => e === "push" || e === "*")) deliverTo(ctx, hook, "push", null, pushPayload(ctx, repo));
      return ghNoContent();
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/hooks/:hook_id/deliveries",
    operation: "repos.listWebhookDeliveries",
    summary: "List deliveries for a repository webhook",
    params: hookParams,
    query: {
      per_page: z.number().int().positive().max(100).optional().catch(undefined).describe("Results per page (at most 100)"),
      cursor: z.string().optional().describe("Where to start: the id before which to list (from the Link header)"),
    },
    tool: { name: "list_hook_deliveries", description: "List a webhook's recent deliveries, newest first: event, action, status." },
    handler(ctx, { params, query }) {
      const repo = requireRepo(ctx);
      const hook = requireHook(ctx, repo, params.hook_id);
      const before = query.cursor && /^\d+$/.test(query.cursor) ? Number(query.cursor) : undefined;
      return ok(listDeliveries(ctx.db, hook.id, query.per_page ?? 30, before).map(deliveryItem));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/hooks/:hook_id/deliveries/:delivery_id",
    operation: "repos.getWebhookDelivery",
    summary: "Get a delivery for a repository webhook",
    params: { ...hookParams, delivery_id: deliveryId },
    tool: { name: "get_hook_delivery", description: "Get one delivery of a webhook with its request headers and payload." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const hook = requireHook(ctx, repo, params.hook_id);
      const d = findDelivery(ctx.db, hook.id, params.delivery_id) ?? fail(ghNotFound());
      return ok({
        ...deliveryItem(d),
        url: d.url,
        request: { headers: JSON.parse(d.headers) as Record<string, string>, payload: JSON.parse(d.payload) as unknown },
        // The receiver's body is not kept (the platform reads no more of it than its status).
        response: { headers: JSON.parse(d.response_headers) as Record<string, string>, payload: null },
      });
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/hooks/:hook_id/deliveries/:delivery_id/attempts",
    operation: "repos.redeliverWebhookDelivery",
    summary: "Redeliver a delivery for a repository webhook",
    params: { ...hookParams, delivery_id: deliveryId },
    tool: { name: "redeliver_hook_delivery", description: "Send a past delivery again (a new delivery marked redelivery)." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const hook = requireHook(ctx, repo, params.hook_id);
      const d = findDelivery(ctx.db, hook.id, params.delivery_id) ?? fail(ghNotFound());
      deliverTo(ctx, hook, d.event, d.action, d.payload, true);
      return ok({}, 202);
    },
  }),
];

/** A `push` payload for the default branch's head (what the hook test sends). */
export function pushPayload(ctx: TwinContext, repo: RepoRow): string {
  const v = new View(ctx);
  const head = ctx.db.one<{ head_sha: string }>(
    "SELECT head_sha FROM gh_branches WHERE repo_id = ? AND name = ?",
    repo.id,
    repo.default_branch,
  );
  const sha = head?.head_sha ?? "0".repeat(40);
  return JSON.stringify({
    ref: `refs/heads/${repo.default_branch}`,
    before: sha,
    after: sha,
    created: false,
    deleted: false,
    forced: false,
    compare: v.repoHtml(repo, `/compare/${sha.slice(0, 12)}...${sha.slice(0, 12)}`),
    commits: [],
    head_commit: null,
    repository: v.repository(repo),
    pusher: { name: v.actor, email: null },
    sender: v.user(v.actor),
  });
}

export const hookRoutes: readonly Route[] = [...crudRoutes, ...deliveryRoutes];
