// Repository webhooks: an event the twin produces goes to every active hook of the repository that
// subscribes to it (or to `*`), through the platform's outbox (TwinContext.webhook: sent after the
// call commits, under the egress policy, retried). Headers as GitHub sends them
// (https://docs.github.com/webhooks/webhook-events-and-payloads#delivery-headers): X-GitHub-Event,
// X-GitHub-Delivery, X-GitHub-Hook-ID and the installation target; `signGithubWebhook` adds
// X-Hub-Signature-256 (`sha256=` HMAC-SHA256 hex of the exact body) and X-Hub-Signature (`sha1=`)
// at send time when the hook has a secret. A `form` hook gets `payload=<url-encoded JSON>`.
import type { TwinContext } from "../types";
import type { RepoRow } from "./repos";
import { View } from "./serialize";
import type { RunRow } from "./store/actions";
import { findWorkflowById } from "./store/actions";
import { type HookRow, activeHooksFor, hasHooks, recordDelivery } from "./store/hooks";
import { isoNow } from "./context";
import { workflowRunObject, workflowObject } from "./view-ci";
import { requireIssue } from "./store/issues";
import { findComment } from "./store/comments";
import { commentObject, issueObject } from "./view-issues";
import { fullPullObject } from "./view-pulls";

/** A delivery's GUID: unique in the sandbox, derived from the hook and the delivery's id. */
export const deliveryGuid = (hookId: number, deliveryId: number) => {
  const hex = `${hookId.toString(16).padStart(8, "0")}${deliveryId.toString(16).padStart(24, "0")}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** The body a hook receives: JSON, or a form field `payload` holding it. */
export const encodedBody = (hook: Pick<HookRow, "content_type">, payload: string) =>
  hook.content_type === "json" ? payload : `payload=${encodeURIComponent(payload)}`;

/** The headers of one delivery, before the signatures the platform adds when sending. */
export function deliveryHeaders(hook: Pick<HookRow, "id" | "repo_id" | "content_type">, event: string, guid: string) {
  return {
    accept: "*/*",
    "content-type": hook.content_type === "json" ? "application/json" : "application/x-www-form-urlencoded",
    "user-agent": "GitHub-Hookshot/pome",
    "x-github-delivery": guid,
    "x-github-event": event,
    "x-github-hook-id": String(hook.id),
    "x-github-hook-installation-target-id": String(hook.repo_id),
    "x-github-hook-installation-target-type": "repository",
  };
}

/** Sends one event to one hook and records the delivery (for GitHub's delivery log and redelivery). */
export function deliverTo(ctx: TwinContext, hook: HookRow, event: string, action: string | null, payload: string, redelivery = false) {
  const record = recordDelivery(ctx.db, hook, { event, action, payload, at: isoNow(ctx), redelivery }, (id) => {
    const guid = deliveryGuid(hook.id, id);
    return { guid, headers: deliveryHeaders(hook, event, guid) };
  });
  ctx.webhook({ url: hook.url, body: encodedBody(hook, payload), headers: JSON.parse(record.headers), secret: hook.secret ?? undefined });
  return record;
}

/** The fields every repository event carries: the repository and the sender. */
function envelope(v: View, repo: RepoRow) {
  return { repository: v.repository(repo), sender: v.user(v.actor) };
}

/** How an issue event becomes a pull-request event when its subject is a pull request. */
interface PullVariant {
  isPull(): boolean;
  asPull(v: View): object;
}

/**
 * Emits an event with `action` and its subject to the repository's subscribed hooks; free when it
 * has none (the subject is built only for a delivery).
 */
export function emitRepoEvent(
  ctx: TwinContext,
  repo: RepoRow,
  event: string,
  action: string | null,
  subject: (v: View) => object,
  pull?: PullVariant,
) {
  if (pull && hasHooks(ctx.db, repo.id) && pull.isPull()) {
    emitRepoEvent(ctx, repo, "pull_request", action, pull.asPull);
    return;
  }
  const hooks = activeHooksFor(ctx.db, repo.id, event);
  if (!hooks.length) return;
  const v = new View(ctx);
  const payload = JSON.stringify({ ...(action ? { action } : {}), ...subject(v), ...envelope(v, repo) });
  for (const hook of hooks) deliverTo(ctx, hook, event, action, payload);
}

/** `workflow_run` (requested on a dispatch, completed on a re-run, which the twin completes at once). */
export function workflowRunEvent(ctx: TwinContext, repo: RepoRow, run: RunRow, action: "requested" | "completed") {
  emitRepoEvent(ctx, repo, "workflow_run", action, (v) => {
    const wf = findWorkflowById(ctx.db, run.workflow_id);
    return { workflow_run: workflowRunObject(v, repo, run, wf), workflow: wf ? workflowObject(v, repo, wf) : null };
  });
}

/**
 * `issues`: opened, and on an update closed, reopened or edited (by the state it asked for). A pull
 * request changed through the issues API is a `pull_request` event, as GitHub names it.
 */
export function issueEvent(ctx: TwinContext, repo: RepoRow, number: number, before: string | null, state?: "open" | "closed") {
  const action = before === null ? "opened" : state && state !== before ? (state === "closed" ? "closed" : "reopened") : "edited";
  emitRepoEvent(
    ctx,
    repo,
    "issues",
    action,
    (v) => ({ issue: issueObject(v, repo, requireIssue(ctx.db, repo.id, number), undefined, { single: true }) }),
    {
      isPull: () => requireIssue(ctx.db, repo.id, number).is_pull === 1,
      asPull: (v) => ({ number, pull_request: fullPullObject(v, repo, requireIssue(ctx.db, repo.id, number)) }),
    },
  );
}

/** `issue_comment` created, on an issue or a pull request. */
export function issueCommentEvent(ctx: TwinContext, repo: RepoRow, number: number, commentId: number) {
  emitRepoEvent(ctx, repo, "issue_comment", "created", (v) => {
    const issue = requireIssue(ctx.db, repo.id, number);
    const comment = findComment(ctx.db, repo.id, commentId);
    return { issue: issueObject(v, repo, issue), comment: comment ? commentObject(v, repo, comment, issue.is_pull === 1) : null };
  });
}

/** `pull_request`: opened, or closed (by a merge). */
export function pullRequestEvent(ctx: TwinContext, repo: RepoRow, number: number, action: "opened" | "closed") {
  emitRepoEvent(ctx, repo, "pull_request", action, (v) => ({
    number,
    pull_request: fullPullObject(v, repo, requireIssue(ctx.db, repo.id, number)),
  }));
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

async function hmac(hash: "SHA-256" | "SHA-1", secret: string, body: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash }, false, ["sign"]);
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(body))));
}

/** X-Hub-Signature-256 and X-Hub-Signature: HMACs of the exact body with the hook's secret. */
export async function signGithubWebhook(delivery: { body: string; secret: string }): Promise<Record<string, string>> {
  return {
    "x-hub-signature-256": `sha256=${await hmac("SHA-256", delivery.secret, delivery.body)}`,
    "x-hub-signature": `sha1=${await hmac("SHA-1", delivery.secret, delivery.body)}`,
  };
}
