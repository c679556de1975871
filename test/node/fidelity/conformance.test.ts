// Schema conformance: the official clients drive each twin on the running server; every taped
// answer is validated against the schema the vendor publishes for that operation and status, and
// any difference the twin has not declared (with its reason, in its fidelity.ts) fails.
import path from "node:path";
import { Octokit } from "@octokit/rest";
import { WebClient } from "@slack/web-api";
import { google } from "googleapis";
import { LinearClient } from "@linear/sdk";
import { describe, expect, it } from "vitest";
import { declared, differencesOf, exampleDifferences, responseSchemas } from "../../../durable-objects/twins/kit/fidelity/conformance";
import type { Divergence } from "../../../durable-objects/twins/kit/fidelity/types";
import { conformance as githubConformance } from "../../../durable-objects/twins/github/fidelity";
import { answerDifferences, linearSchema } from "../../../durable-objects/twins/linear/answer-conformance";
import { declaredByWebApi } from "../../../durable-objects/twins/slack/response-types";
import { servedTypes, versionSkew } from "../../../durable-objects/twins/stripe/version-skew";
import { measureTape, type TapedAnswer } from "../../conformance/collector";
import { EVERYDAY_WORLD } from "../github/world";
import { LOCAL_KEY } from "../server";
import { createSandbox, pomeUrl, type Sandbox, stripeFor } from "../mcp/helpers";

const root = path.resolve(import.meta.dirname, "../../..");

type Row = TapedAnswer;

async function tape(sandbox: Sandbox, twin: string): Promise<Row[]> {
  const res = await fetch(`${sandbox.per_twin[twin].api_url}/_pome/events`, {
    headers: { authorization: `Bearer ${sandbox.agent_token}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Row[];
}

describe("the check itself", () => {
  it("names what the closest shape of a union lacks, not what every other shape does", () => {
    const shared = {
      components: {
        schemas: {
          labeled: { type: "object", required: ["event", "label"], properties: { event: { const: "labeled" }, label: { type: "string" } } },
          committed: {
            type: "object",
            required: ["event", "sha", "tree", "author"],
            properties: { event: { const: "committed" }, sha: { type: "string" }, tree: { type: "string" }, author: { type: "string" } },
          },
        },
      },
    };
    const schemas = responseSchemas("https://schemas.pome.invalid/union.json", "components", shared, true);
    const validate = schemas("timeline", {
      type: "array",
      items: { oneOf: [{ $ref: "#/components/schemas/labeled" }, { $ref: "#/components/schemas/committed" }] },
    });
    expect(validate?.([{ event: "labeled" }])).toBe(false);
    const diffs = differencesOf("timeline", 200, validate?.errors ?? [], schemas.checkBranch);
    expect(diffs.map((d) => `${d.kind} ${d.path}`)).toEqual(["missing /*/label"]);
  });

  const check = githubConformance(root);
  it("fails a missing, an extra and a mistyped field, and lets a declared one through", () => {
    const target = check("GET", "/repos/acme/api/labels/bug", 200);
    expect(target?.operation).toBe("issues/get-label");
    const label = { id: 1, node_id: "x", url: "u", name: "bug", description: null, color: "d73a4a", default: false };
    expect(target?.validate?.(label)).toBe(true);
    const { color: _dropped, ...missing } = label;
    target?.validate?.({ ...missing, id: "one", invented: true });
    const diffs = differencesOf("issues/get-label", 200, target?.validate?.errors ?? []);
    expect(diffs.map((d) => `${d.kind} ${d.path}`).sort()).toEqual(["extra /invented", "missing /color", "type /id"]);
    const declaredOne: Divergence = { operation: "issues/get-label", path: "/invented", kind: "extra", reason: "test" };
    expect(diffs.filter((d) => !declared(d, [declaredOne])).map((d) => d.path)).toEqual(expect.not.arrayContaining(["/invented"]));
  });
});

describe("declarations, examples and a description older than the API served", () => {
  it("lets a `**` declaration cover a field at any depth, and nothing else", () => {
    const totals: Divergence = { operation: "*", path: "/**/total_count", kind: "extra", reason: "test" };
    const diff = (path: string) => ({ operation: "GET /v1/invoices", status: 200, path, kind: "extra" as const, message: "" });
    expect(declared(diff("/lines/total_count"), [totals])).toBe(totals);
    expect(declared(diff("/data/*/lines/total_count"), [totals])).toBe(totals);
    expect(declared(diff("/total_count"), [totals])).toBe(totals);
    expect(declared(diff("/lines/total_counts"), [totals])).toBeUndefined();
  });

  it("holds an answer to its description's example of the same case, top-level fields and types", () => {
    const example = { ok: true, channel: "C1", ts: "1.2", message: { text: "x" } };
    expect(
      exampleDifferences("chat.postMessage", 200, example, { ok: true, channel: "C2", ts: 3, message: {} }).map(
        (d) => `${d.kind} ${d.path}`,
      ),
    ).toEqual(["type /ts"]);
    expect(exampleDifferences("chat.postMessage", 200, example, { ok: true, ts: "1" }).map((d) => d.path)).toEqual([
      "/channel",
      "/message",
    ]);
    // An example of one refusal says nothing of another.
    const refusal = { ok: false, error: "invalid_arguments", response_metadata: { messages: [] } };
    expect(exampleDifferences("views.open", 200, refusal, { ok: false, error: "expired_trigger_id" })).toEqual([]);
    expect(exampleDifferences("views.open", 200, refusal, { ok: false, error: "invalid_arguments" }).map((d) => d.path)).toEqual([
      "/response_metadata",
    ]);
  });

  it("lets through a Slack field @slack/web-api's response type declares at that place, and no other", () => {
    const slack = declaredByWebApi(root);
    const extra = (operation: string, path: string) => ({ operation, status: 200, path, kind: "extra" as const, message: "" });
    expect(slack(extra("chat.postMessage", "/message/blocks"))).toMatch(/ChatPostMessageResponseMessage/);
    expect(slack(extra("conversations.history", "/messages/*/bot_profile/team_id"))).toMatch(/BotProfile/);
    expect(slack(extra("chat.postMessage", "/message/invented"))).toBeUndefined();
    expect(slack(extra("chat.postMessage", "/blocks"))).toBeUndefined();
  });

  const skew = versionSkew(servedTypes(root));
  const invoice = {
    object: "invoice",
    id: "in_1",
    parent: null,
    customer: "cus_1",
    lines: { object: "list", data: [{ object: "line_item", parent: null }] },
  };
  const diff = (kind: "missing" | "extra" | "type", path: string) => ({
    operation: "GET /v1/invoices/{invoice}",
    status: 200,
    path,
    kind,
    message: "",
  });
  it("lets through a Stripe field added or removed since the description, as stripe-node's types say", () => {
    expect(skew(diff("extra", "/parent"), invoice)).toMatch(/added after 2024-04-10.*Invoice\.parent/);
    expect(skew(diff("extra", "/lines/data/*/parent"), invoice)).toMatch(/InvoiceLineItem\.parent/);
    expect(skew(diff("missing", "/paid"), invoice)).toMatch(/removed after 2024-04-10/);
  });
  it("does not excuse a field the twin invented, or one it lacks that Stripe still sends", () => {
    expect(skew(diff("extra", "/invented"), invoice)).toBeUndefined();
    expect(skew(diff("missing", "/customer"), invoice)).toBeUndefined();
    expect(skew(diff("type", "/customer"), invoice)).toBeUndefined();
  });
});

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** A tape measured as every workers test's tapes are (test/conformance/collector.ts). */
async function measured(twin: string, rows: readonly Row[]) {
  const verdict = await measureTape(twin, rows);
  if (!verdict) throw new Error(`no conformance measure for ${twin}`);
  return verdict;
}

describe("the GitHub twin's answers conform to GitHub's full OpenAPI description", () => {
  it("validates every answer of an everyday @octokit/rest session, or the twin declares why not", async () => {
    const sandbox = await createSandbox({ twins: ["github"], seed: EVERYDAY_WORLD });
    const octokit = new Octokit({ baseUrl: sandbox.per_twin.github.api_url, auth: sandbox.provider_credentials.github.token, log: quiet });
    const repo = { owner: "acme", repo: "api" };
    const calls: (() => Promise<unknown>)[] = [
      () => octokit.users.getAuthenticated(),
      () => octokit.users.getByUsername({ username: "bob" }),
      () => octokit.repos.get(repo),
      () => octokit.repos.listForOrg({ org: "acme" }),
      () => octokit.repos.listForAuthenticatedUser(),
      () => octokit.repos.listBranches(repo),
      () => octokit.repos.getBranch({ ...repo, branch: "main" }),
      () => octokit.repos.listCommits(repo),
      () => octokit.repos.getContent({ ...repo, path: "README.md" }),
      () => octokit.repos.getContent({ ...repo, path: "src" }),
      () =>
        octokit.repos.createOrUpdateFileContents({
          ...repo,
          path: "docs/new.md",
          message: "Add",
          content: Buffer.from("x").toString("base64"),
        }),
      () => octokit.repos.listCollaborators(repo),
      () => octokit.repos.getCombinedStatusForRef({ ...repo, ref: "feature" }),
      () => octokit.issues.get({ ...repo, issue_number: 1 }),
      () => octokit.issues.listForRepo({ ...repo, state: "all" }),
      () => octokit.issues.create({ ...repo, title: "New", labels: ["fresh"], milestone: 1 }),
      () => octokit.issues.update({ ...repo, issue_number: 1, state: "closed" }),
      () => octokit.issues.listLabelsForRepo(repo),
      () => octokit.issues.getLabel({ ...repo, name: "bug" }),
      () => octokit.issues.createLabel({ ...repo, name: "docs", color: "0075ca" }),
      () => octokit.issues.addLabels({ ...repo, issue_number: 1, labels: ["docs"] }),
      () => octokit.issues.listLabelsOnIssue({ ...repo, issue_number: 1 }),
      () => octokit.issues.listComments({ ...repo, issue_number: 1 }),
      () => octokit.issues.createComment({ ...repo, issue_number: 1, body: "On it" }),
      () => octokit.issues.listMilestones(repo),
      () => octokit.issues.addAssignees({ ...repo, issue_number: 1, assignees: ["octo"] }),
      () => octokit.pulls.get({ ...repo, pull_number: 2 }),
      () => octokit.pulls.list(repo),
      () => octokit.pulls.listFiles({ ...repo, pull_number: 2 }),
      () => octokit.pulls.listCommits({ ...repo, pull_number: 2 }),
      () => octokit.pulls.requestReviewers({ ...repo, pull_number: 2, reviewers: ["octo"] }),
      () => octokit.pulls.createReview({ ...repo, pull_number: 2, event: "APPROVE" }),
      () => octokit.pulls.listReviews({ ...repo, pull_number: 2 }),
      () => octokit.pulls.listReviewComments({ ...repo, pull_number: 2 }),
      () => octokit.pulls.merge({ ...repo, pull_number: 2 }),
      () => octokit.pulls.create({ ...repo, title: "Another", head: "feature", base: "main" }),
      () => octokit.git.getRef({ ...repo, ref: "heads/main" }),
      () => octokit.search.issuesAndPullRequests({ q: "repo:acme/api is:issue" }),
      () => octokit.search.repos({ q: "api" }),
      () => octokit.search.users({ q: "bob" }),
      () => octokit.search.code({ q: "breaks repo:acme/api" }),
      () => octokit.issues.get({ ...repo, issue_number: 999 }),
    ];
    // Refusals are answers too: they are validated against the error schemas of their status.
    for (const call of calls) await call().catch(() => undefined);
    const rows = await tape(sandbox, "github");
    expect(rows.length).toBeGreaterThanOrEqual(calls.length);
    const verdict = await measured("github", rows);
    expect(verdict.undescribed).toEqual([]);
    expect(verdict.validated.length).toBeGreaterThan(30);
    expect(verdict.undeclared).toEqual([]);
  }, 120_000);

  it("validates a repository-administration session: create, update, fork, stars, sub-issues, collaborators", async () => {
    const sandbox = await createSandbox({ twins: ["github"], seed: EVERYDAY_WORLD });
    const octokit = new Octokit({ baseUrl: sandbox.per_twin.github.api_url, auth: sandbox.provider_credentials.github.token, log: quiet });
    const repo = { owner: "acme", repo: "api" };
    const issueId = async (issue_number: number) => (await octokit.issues.get({ ...repo, issue_number })).data.id;
    const calls: (() => Promise<unknown>)[] = [
      () => octokit.repos.createForAuthenticatedUser({ name: "notes", auto_init: true }),
      () => octokit.repos.createInOrg({ org: "acme", name: "web", private: true }),
      () => octokit.repos.createInOrg({ org: "acme", name: "api" }),
      () => octokit.repos.update({ owner: "acme", repo: "web", description: "Web", homepage: "https://acme.example", has_wiki: false }),
      () => octokit.repos.update({ owner: "acme", repo: "web", default_branch: "missing" }),
      () => octokit.repos.createFork(repo),
      () => octokit.repos.get({ owner: "octo", repo: "api" }),
      () => octokit.repos.listForks(repo),
      () => octokit.activity.starRepoForAuthenticatedUser(repo),
      () => octokit.activity.checkRepoIsStarredByAuthenticatedUser(repo),
      () => octokit.activity.checkRepoIsStarredByAuthenticatedUser({ owner: "acme", repo: "web" }),
      () => octokit.activity.listReposStarredByAuthenticatedUser(),
      () => octokit.activity.listStargazersForRepo(repo),
      () => octokit.activity.unstarRepoForAuthenticatedUser(repo),
      () => octokit.issues.create({ ...repo, title: "Child" }),
      async () => octokit.issues.addSubIssue({ ...repo, issue_number: 1, sub_issue_id: await issueId(3) }),
      () => octokit.issues.listSubIssues({ ...repo, issue_number: 1 }),
      () => octokit.issues.getParent({ ...repo, issue_number: 3 }),
      async () => octokit.issues.addSubIssue({ ...repo, issue_number: 1, sub_issue_id: await issueId(3) }),
      async () => octokit.issues.reprioritizeSubIssue({ ...repo, issue_number: 1, sub_issue_id: await issueId(3) }),
      async () => octokit.issues.removeSubIssue({ ...repo, issue_number: 1, sub_issue_id: await issueId(3) }),
      () => octokit.repos.checkCollaborator({ ...repo, username: "bob" }),
      () => octokit.repos.getCollaboratorPermissionLevel({ ...repo, username: "bob" }),
      () => octokit.repos.addCollaborator({ ...repo, username: "bob", permission: "maintain" }),
      () => octokit.repos.removeCollaborator({ ...repo, username: "bob" }),
      () => octokit.repos.addCollaborator({ ...repo, username: "bob" }),
      () => octokit.repos.listInvitations(repo),
      () => octokit.repos.update({ owner: "acme", repo: "web", archived: true }),
      () => octokit.issues.create({ owner: "acme", repo: "web", title: "Archived" }),
      () => octokit.repos.delete({ owner: "acme", repo: "web" }),
    ];
    for (const call of calls) await call().catch(() => undefined);
    const verdict = await measured("github", await tape(sandbox, "github"));
    expect(verdict.undescribed).toEqual([]);
    expect(verdict.validated.length).toBeGreaterThan(15);
    expect(verdict.undeclared).toEqual([]);
  }, 120_000);
});

describe("the Slack twin's answers conform to Slack's Web API description (loose: extras pass)", () => {
  it("validates every answer of a WebClient session, or the twin declares why not", async () => {
    const sandbox = await createSandbox({ twins: ["slack"] });
    const web = new WebClient(sandbox.provider_credentials.slack.token, {
      slackApiUrl: `${sandbox.per_twin.slack.api_url}/api/`,
      retryConfig: { retries: 0 },
    });
    const calls: (() => Promise<unknown>)[] = [
      () => web.auth.test(),
      () => web.team.info(),
      () => web.users.list({}),
      () => web.users.info({ user: "U0BOT" }),
      () => web.users.profile.get({}),
      () => web.conversations.list({}),
      () => web.conversations.info({ channel: "C0GENERAL" }),
      () => web.conversations.history({ channel: "C0GENERAL" }),
      () => web.chat.postMessage({ channel: "#general", text: "hello" }),
      () => web.conversations.replies({ channel: "C0GENERAL", ts: "1" }),
      () => web.reactions.add({ channel: "C0GENERAL", name: "thumbsup", timestamp: "1" }),
      () => web.conversations.members({ channel: "C0GENERAL" }),
      () => web.chat.postMessage({ channel: "C0RANDOM", text: "hi" }),
    ];
    for (const call of calls) await call().catch(() => undefined);
    const rows = await tape(sandbox, "slack");
    const verdict = await measured("slack", rows);
    expect(verdict.validated.length).toBeGreaterThan(8);
    expect(verdict.undeclared).toEqual([]);
  }, 120_000);
});

describe("the Stripe twin's answers conform to Stripe's spec3.json (2024-04-10, newer fields read from stripe-node's types)", () => {
  it("validates every answer of a stripe-node session, or the twin declares why not", async () => {
    const sandbox = await createSandbox({ twins: ["stripe"] });
    const stripe = stripeFor(sandbox);
    const customer = await stripe.customers.create({ email: "ada@example.com", name: "Ada" });
    const product = await stripe.products.create({ name: "Pro" });
    const price = await stripe.prices.create({ product: product.id, unit_amount: 1500, currency: "usd", recurring: { interval: "month" } });
    await stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
    const calls: (() => Promise<unknown>)[] = [
      () => stripe.customers.retrieve(customer.id),
      () => stripe.customers.list({ limit: 3 }),
      () => stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: "pm_card_visa" } }),
      () => stripe.products.list(),
      () => stripe.prices.list({ product: product.id }),
      () =>
        stripe.paymentIntents.create({
          amount: 2000,
          currency: "usd",
          customer: customer.id,
          payment_method: "pm_card_visa",
          confirm: true,
        }),
      () => stripe.paymentIntents.list({ customer: customer.id }),
      () => stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] }),
      () => stripe.subscriptions.list({ customer: customer.id }),
      () => stripe.invoices.list({ customer: customer.id }),
      () => stripe.charges.list({ customer: customer.id }),
      () => stripe.balance.retrieve(),
      () => stripe.coupons.create({ percent_off: 10, duration: "once" }),
      () => stripe.customers.retrieve("cus_missing"),
      () => stripe.paymentIntents.create({ amount: -1, currency: "usd" }),
    ];
    for (const call of calls) await call().catch(() => undefined);
    const verdict = await measured("stripe", await tape(sandbox, "stripe"));
    expect(verdict.undescribed).toEqual([]);
    expect(verdict.validated.length).toBeGreaterThan(12);
    expect(verdict.undeclared).toEqual([]);
  }, 120_000);
});

describe("the Gmail twin's answers conform to Gmail's discovery schemas (as googleapis declares them)", () => {
  it("validates every answer of a googleapis session, or the twin declares why not", async () => {
    const sandbox = await createSandbox({ twins: ["gmail"] });
    const auth = new google.auth.OAuth2();
    auth.setCredentials({ access_token: sandbox.provider_credentials.gmail.token, expiry_date: Date.now() + 3600e3 });
    const gmail = google.gmail({ version: "v1", auth, rootUrl: `${pomeUrl()}/`, retry: false });
    const me = { userId: "me" };
    const raw = (text: string) => Buffer.from(`To: lee@partner.test\r\nSubject: Hello\r\n\r\n${text}`).toString("base64url");
    const first = async () => (await gmail.users.messages.list({ ...me, maxResults: 1 })).data.messages?.[0]?.id ?? "";
    const calls: (() => Promise<unknown>)[] = [
      () => gmail.users.getProfile(me),
      () => gmail.users.labels.list(me),
      () => gmail.users.labels.get({ ...me, id: "INBOX" }),
      () => gmail.users.labels.create({ ...me, requestBody: { name: "Receipts" } }),
      () => gmail.users.messages.list({ ...me, q: "is:unread" }),
      async () => gmail.users.messages.get({ ...me, id: await first(), format: "full" }),
      async () => gmail.users.messages.get({ ...me, id: await first(), format: "metadata" }),
      async () => gmail.users.messages.modify({ ...me, id: await first(), requestBody: { addLabelIds: ["STARRED"] } }),
      () => gmail.users.messages.send({ ...me, requestBody: { raw: raw("Sent") } }),
      () => gmail.users.drafts.create({ ...me, requestBody: { message: { raw: raw("Draft") } } }),
      () => gmail.users.drafts.list(me),
      () => gmail.users.threads.list({ ...me, maxResults: 2 }),
      () => gmail.users.history.list({ ...me, startHistoryId: "1" }),
      () => gmail.users.messages.get({ ...me, id: "00000000deadbeef" }),
    ];
    for (const call of calls) await call().catch(() => undefined);
    const rows = await tape(sandbox, "gmail");
    const verdict = await measured("gmail", rows);
    expect(verdict.undescribed).toEqual([]);
    expect(verdict.validated.length).toBeGreaterThan(8);
    expect(verdict.undeclared).toEqual([]);
  }, 120_000);
});

describe("the Linear twin's answers conform to Linear's GraphQL schema, query by query", () => {
  it("checks every answer of an @linear/sdk session against the schema for the query that asked it", async () => {
    const sandbox = await createSandbox({ twins: ["linear"] });
    const client = new LinearClient({
      apiKey: sandbox.provider_credentials.linear.token,
      apiUrl: `${sandbox.per_twin.linear.api_url}/graphql`,
    });
    const calls: (() => Promise<unknown>)[] = [
      async () => (await client.viewer).assignedIssues(),
      () => client.teams(),
      () => client.users(),
      () => client.workflowStates(),
      () => client.issueLabels(),
      () => client.projects(),
      () => client.issues({ first: 10 }),
      async () => {
        const issue = await client.issue("ENG-1");
        await Promise.all([issue.state, issue.assignee, issue.team, issue.labels(), issue.comments()]);
      },
      async () => {
        const team = (await client.teams()).nodes[0];
        await client.createIssue({ teamId: team.id, title: "Conformance" });
      },
      () => client.createComment({ issueId: "ENG-1", body: "Looking" }),
      () => client.issue("ENG-999"),
    ];
    for (const call of calls) await call().catch(() => undefined);
    const rows = await tape(sandbox, "linear");
    const verdict = await measured("linear", rows);
    expect(verdict.validated.length).toBeGreaterThan(10);
    expect(verdict.undeclared).toEqual([]);
  }, 120_000);

  it("finds a missing field, an extra one and a wrong type", () => {
    const schema = linearSchema(root);
    const diffs = answerDifferences(schema, "query { viewer { id name email } }", { viewer: { id: 3, email: "a@b.c", extra: true } });
    expect(diffs.map((d) => `${d.kind} ${d.path}`).sort()).toEqual(["extra /viewer/extra", "missing /viewer/name", "type /viewer/id"]);
  });
});

describe("every registered twin is measured", () => {
  it("has a conformance measure from its own fidelity.ts, so a new twin is measured the day it lands", async () => {
    const res = await fetch(`${pomeUrl()}/v1/twins`, { headers: { authorization: `Bearer ${LOCAL_KEY}` } });
    const ids = ((await res.json()) as { twins: { id: string }[] }).twins.map((t) => t.id);
    expect(ids.length).toBeGreaterThanOrEqual(5);
    for (const id of ids) expect(await measureTape(id, []), id).toEqual({ validated: [], undescribed: [], undeclared: [] });
  });
});
