// The operations agents use, per vendor: the REST/GraphQL operations behind the default tools of
// the vendor's official MCP server (or the reference MCP server where the vendor publishes none)
// and its SDK quickstart. Ids are the vendor's own (see types.ts). Written down from the sources
// named; when a server adds tools, add their operations here and run `npm run fidelity`.

export interface AgentRelevantSet {
  source: string;
  operations: readonly string[];
}

export const AGENT_RELEVANT: Record<string, AgentRelevantSet> = {
  github: {
    source:
      "github/github-mcp-server default toolsets (context, repos, issues, pull_requests, users), pkg/github/*.go REST calls; octokit.js README quickstart (GET /user, issues.create)",
    operations: [
      // context
      "users/get-authenticated",
      // repos
      "search/repos",
      "repos/get-content",
      "repos/list-commits",
      "search/code",
      "repos/get-commit",
      "repos/list-branches",
      "repos/list-tags",
      "git/get-tag",
      "git/get-ref",
      "repos/list-releases",
      "repos/get-latest-release",
      "repos/get-release-by-tag",
      "repos/create-or-update-file-contents",
      "repos/delete-file",
      "repos/create-for-authenticated-user",
      "repos/create-in-org",
      "repos/create-fork",
      "git/create-ref",
      "git/get-commit",
      "git/create-tree",
      "git/create-commit",
      "git/update-ref",
      "repos/get",
      "activity/list-repos-starred-by-authenticated-user",
      "activity/star-repo-for-authenticated-user",
      "activity/unstar-repo-for-authenticated-user",
      // issues
      "issues/get",
      "issues/create",
      "issues/update",
      "issues/create-comment",
      "issues/list-comments",
      "issues/list-for-repo",
      "issues/list-labels-on-issue",
      "issues/list-labels-for-repo",
      "issues/get-label",
      "issues/create-label",
      "issues/list-sub-issues",
      "issues/add-sub-issue",
      "issues/remove-sub-issue",
      "issues/reprioritize-sub-issue",
      "search/issues-and-pull-requests",
      // pull_requests
      "pulls/get",
      "pulls/list",
      "pulls/create",
      "pulls/update",
      "pulls/merge",
      "pulls/list-files",
      "pulls/list-review-comments",
      "pulls/list-reviews",
      "pulls/update-branch",
      "pulls/request-reviewers",
      "repos/get-combined-status-for-ref",
      // users
      "search/users",
    ],
  },
  stripe: {
    source:
      "stripe/agent-toolkit (@stripe/agent-toolkit and the Stripe MCP server's tools: customers, products, prices, payment links, invoices, invoice items, balance, refunds, payment intents, subscriptions, coupons, disputes, account info); stripe-node README quickstart (customers.create)",
    operations: [
      "POST /v1/customers",
      "GET /v1/customers",
      "POST /v1/products",
      "GET /v1/products",
      "POST /v1/prices",
      "GET /v1/prices",
      "POST /v1/payment_links",
      "POST /v1/invoices",
      "GET /v1/invoices",
      "POST /v1/invoiceitems",
      "POST /v1/invoices/{invoice}/finalize",
      "GET /v1/balance",
      "POST /v1/refunds",
      "GET /v1/payment_intents",
      "GET /v1/subscriptions",
      "POST /v1/subscriptions/{subscription_exposed_id}",
      "DELETE /v1/subscriptions/{subscription_exposed_id}",
      "GET /v1/coupons",
      "POST /v1/coupons",
      "GET /v1/disputes",
      "POST /v1/disputes/{dispute}",
      "GET /v1/account",
    ],
  },
  slack: {
    source:
      "modelcontextprotocol/servers (src/slack, Slack's reference MCP server: slack_list_channels, slack_post_message, slack_reply_to_thread, slack_add_reaction, slack_get_channel_history, slack_get_thread_replies, slack_get_users, slack_get_user_profile); @slack/web-api README quickstart (chat.postMessage, conversations.list)",
    operations: [
      "conversations.list",
      "chat.postMessage",
      "reactions.add",
      "conversations.history",
      "conversations.replies",
      "users.list",
      "users.profile.get",
      "users.info",
      "auth.test",
    ],
  },
  gmail: {
    source:
      "Google's Gmail API Node.js quickstart (users.labels.list) and the Gmail guides it links for agents' everyday calls (sending, drafts, reading, searching, labelling messages and threads); Google publishes no Gmail MCP server",
    operations: [
      "gmail.users.labels.list",
      "gmail.users.getProfile",
      "gmail.users.messages.list",
      "gmail.users.messages.get",
      "gmail.users.messages.send",
      "gmail.users.messages.modify",
      "gmail.users.messages.trash",
      "gmail.users.drafts.create",
      "gmail.users.drafts.send",
      "gmail.users.threads.list",
      "gmail.users.threads.get",
    ],
  },
  linear: {
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
  },
};
