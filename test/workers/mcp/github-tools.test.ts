import { describe, expect, it } from "vitest";
import { z } from "zod";
import { matchRoute } from "../../../durable-objects/dispatch";
import { githubTwin } from "../../../durable-objects/twins/github";
import { githubTools } from "../../../durable-objects/twins/github/tools";
import type { TwinTool } from "../../../durable-objects/twins/types";

const R = { owner: "acme", repo: "api" };

/** Each tool with sample arguments, the REST call it must make, and Octokit's name for that call. */
const CASES: { tool: string; args: Record<string, unknown>; request: ReturnType<TwinTool["toRequest"]>; operation: string }[] = [
  { tool: "get_me", args: {}, request: { method: "GET", path: "/user" }, operation: "users.getAuthenticated" },
  { tool: "get_user", args: { username: "alice" }, request: { method: "GET", path: "/users/alice" }, operation: "users.getByUsername" },
  { tool: "get_repository", args: R, request: { method: "GET", path: "/repos/acme/api" }, operation: "repos.get" },
  {
    tool: "list_my_repositories",
    args: { sort: "updated" },
    request: { method: "GET", path: "/user/repos", query: { sort: "updated" } },
    operation: "repos.listForAuthenticatedUser",
  },
  {
    tool: "list_user_repositories",
    args: { username: "alice" },
    request: { method: "GET", path: "/users/alice/repos", query: {} },
    operation: "repos.listForUser",
  },
  {
    tool: "list_org_repositories",
    args: { org: "acme", type: "public" },
    request: { method: "GET", path: "/orgs/acme/repos", query: { type: "public" } },
    operation: "repos.listForOrg",
  },
  { tool: "get_rate_limit", args: {}, request: { method: "GET", path: "/rate_limit" }, operation: "rateLimit.get" },
  {
    tool: "search_code",
    args: { q: "bug" },
    request: { method: "GET", path: "/search/code", query: { q: "bug" } },
    operation: "search.code",
  },
  {
    tool: "search_commits",
    args: { q: "bug" },
    request: { method: "GET", path: "/search/commits", query: { q: "bug" } },
    operation: "search.commits",
  },
  {
    tool: "search_repositories",
    args: { q: "bug" },
    request: { method: "GET", path: "/search/repositories", query: { q: "bug" } },
    operation: "search.repos",
  },
  {
    tool: "search_users",
    args: { q: "bug" },
    request: { method: "GET", path: "/search/users", query: { q: "bug" } },
    operation: "search.users",
  },
  {
    tool: "search_labels",
    args: { repository_id: 100, q: "bug" },
    request: { method: "GET", path: "/search/labels", query: { repository_id: "100", q: "bug" } },
    operation: "search.labels",
  },
  {
    tool: "search_topics",
    args: { q: "bug" },
    request: { method: "GET", path: "/search/topics", query: { q: "bug" } },
    operation: "search.topics",
  },
  {
    tool: "get_organization",
    args: { org: "acme" },
    request: { method: "GET", path: "/orgs/acme" },
    operation: "orgs.get",
  },
  {
    tool: "list_my_organizations",
    args: {},
    request: { method: "GET", path: "/user/orgs", query: {} },
    operation: "orgs.listForAuthenticatedUser",
  },
  {
    tool: "list_user_organizations",
    args: { username: "alice" },
    request: { method: "GET", path: "/users/alice/orgs", query: {} },
    operation: "orgs.listForUser",
  },
  {
    tool: "list_org_members",
    args: { org: "acme" },
    request: { method: "GET", path: "/orgs/acme/members", query: {} },
    operation: "orgs.listMembers",
  },
  {
    tool: "check_org_membership",
    args: { org: "acme", username: "alice" },
    request: { method: "GET", path: "/orgs/acme/members/alice" },
    operation: "orgs.checkMembershipForUser",
  },
  {
    tool: "get_org_membership",
    args: { org: "acme", username: "alice" },
    request: { method: "GET", path: "/orgs/acme/memberships/alice" },
    operation: "orgs.getMembershipForUser",
  },
  {
    tool: "create_team",
    args: { org: "acme", name: "Docs", privacy: "closed" },
    request: { method: "POST", path: "/orgs/acme/teams", body: { name: "Docs", privacy: "closed" } },
    operation: "teams.create",
  },
  {
    tool: "update_team",
    args: { org: "acme", team_slug: "core", description: "Core people" },
    request: { method: "PATCH", path: "/orgs/acme/teams/core", body: { description: "Core people" } },
    operation: "teams.updateInOrg",
  },
  {
    tool: "delete_team",
    args: { org: "acme", team_slug: "core" },
    request: { method: "DELETE", path: "/orgs/acme/teams/core" },
    operation: "teams.deleteInOrg",
  },
  {
    tool: "list_teams",
    args: { org: "acme" },
    request: { method: "GET", path: "/orgs/acme/teams", query: {} },
    operation: "teams.list",
  },
  {
    tool: "get_team",
    args: { org: "acme", team_slug: "core" },
    request: { method: "GET", path: "/orgs/acme/teams/core" },
    operation: "teams.getByName",
  },
  {
    tool: "list_team_members",
    args: { org: "acme", team_slug: "core" },
    request: { method: "GET", path: "/orgs/acme/teams/core/members", query: {} },
    operation: "teams.listMembersInOrg",
  },
  {
    tool: "get_team_membership",
    args: { org: "acme", team_slug: "core", username: "alice" },
    request: { method: "GET", path: "/orgs/acme/teams/core/memberships/alice" },
    operation: "teams.getMembershipForUserInOrg",
  },
  {
    tool: "add_team_member",
    args: { org: "acme", team_slug: "core", username: "alice" },
    request: { method: "PUT", path: "/orgs/acme/teams/core/memberships/alice", body: {} },
    operation: "teams.addOrUpdateMembershipForUserInOrg",
  },
  {
    tool: "remove_team_member",
    args: { org: "acme", team_slug: "core", username: "alice" },
    request: { method: "DELETE", path: "/orgs/acme/teams/core/memberships/alice" },
    operation: "teams.removeMembershipForUserInOrg",
  },
  {
    tool: "list_team_repositories",
    args: { org: "acme", team_slug: "core" },
    request: { method: "GET", path: "/orgs/acme/teams/core/repos", query: {} },
    operation: "teams.listReposInOrg",
  },
  {
    tool: "check_team_repository_permission",
    args: { ...R, org: "acme", team_slug: "core" },
    request: { method: "GET", path: "/orgs/acme/teams/core/repos/acme/api" },
    operation: "teams.checkPermissionsForRepoInOrg",
  },
  {
    tool: "set_team_repository_permission",
    args: { ...R, org: "acme", team_slug: "core" },
    request: { method: "PUT", path: "/orgs/acme/teams/core/repos/acme/api", body: {} },
    operation: "teams.addOrUpdateRepoPermissionsInOrg",
  },
  {
    tool: "remove_team_repository",
    args: { ...R, org: "acme", team_slug: "core" },
    request: { method: "DELETE", path: "/orgs/acme/teams/core/repos/acme/api" },
    operation: "teams.removeRepoInOrg",
  },
  {
    tool: "list_repository_teams",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/teams", query: {} },
    operation: "repos.listTeams",
  },
  {
    tool: "list_my_teams",
    args: {},
    request: { method: "GET", path: "/user/teams", query: {} },
    operation: "teams.listForAuthenticatedUser",
  },
  {
    tool: "list_notifications",
    args: {},
    request: { method: "GET", path: "/notifications", query: {} },
    operation: "activity.listNotificationsForAuthenticatedUser",
  },
  {
    tool: "list_repository_notifications",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/notifications", query: {} },
    operation: "activity.listRepoNotificationsForAuthenticatedUser",
  },
  {
    tool: "mark_all_notifications_read",
    args: {},
    request: { method: "PUT", path: "/notifications", body: {} },
    operation: "activity.markNotificationsAsRead",
  },
  {
    tool: "mark_repository_notifications_read",
    args: R,
    request: { method: "PUT", path: "/repos/acme/api/notifications", body: {} },
    operation: "activity.markRepoNotificationsAsRead",
  },
  {
    tool: "get_notification",
    args: { thread_id: 7 },
    request: { method: "GET", path: "/notifications/threads/7" },
    operation: "activity.getThread",
  },
  {
    tool: "mark_notification_read",
    args: { thread_id: 7 },
    request: { method: "PATCH", path: "/notifications/threads/7" },
    operation: "activity.markThreadAsRead",
  },
  {
    tool: "mark_notification_done",
    args: { thread_id: 7 },
    request: { method: "DELETE", path: "/notifications/threads/7" },
    operation: "activity.markThreadAsDone",
  },
  {
    tool: "get_notification_subscription",
    args: { thread_id: 7 },
    request: { method: "GET", path: "/notifications/threads/7/subscription" },
    operation: "activity.getThreadSubscriptionForAuthenticatedUser",
  },
  {
    tool: "set_notification_subscription",
    args: { thread_id: 7 },
    request: { method: "PUT", path: "/notifications/threads/7/subscription", body: {} },
    operation: "activity.setThreadSubscription",
  },
  {
    tool: "delete_notification_subscription",
    args: { thread_id: 7 },
    request: { method: "DELETE", path: "/notifications/threads/7/subscription" },
    operation: "activity.deleteThreadSubscription",
  },
  {
    tool: "create_repository",
    args: { name: "widgets" },
    request: { method: "POST", path: "/user/repos", body: { name: "widgets" } },
    operation: "repos.createForAuthenticatedUser",
  },
  {
    tool: "create_org_repository",
    args: { org: "acme", name: "widgets" },
    request: { method: "POST", path: "/orgs/acme/repos", body: { name: "widgets" } },
    operation: "repos.createInOrg",
  },
  {
    tool: "update_repository",
    args: R,
    request: { method: "PATCH", path: "/repos/acme/api", body: {} },
    operation: "repos.update",
  },
  {
    tool: "delete_repository",
    args: R,
    request: { method: "DELETE", path: "/repos/acme/api" },
    operation: "repos.delete",
  },
  {
    tool: "list_forks",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/forks", query: {} },
    operation: "repos.listForks",
  },
  {
    tool: "fork_repository",
    args: R,
    request: { method: "POST", path: "/repos/acme/api/forks", body: {} },
    operation: "repos.createFork",
  },
  {
    tool: "transfer_repository",
    args: { ...R, new_owner: "acme-labs" },
    request: { method: "POST", path: "/repos/acme/api/transfer", body: { new_owner: "acme-labs" } },
    operation: "repos.transfer",
  },
  {
    tool: "list_starred_repositories",
    args: {},
    request: { method: "GET", path: "/user/starred", query: {} },
    operation: "activity.listReposStarredByAuthenticatedUser",
  },
  {
    tool: "check_repository_starred",
    args: R,
    request: { method: "GET", path: "/user/starred/acme/api" },
    operation: "activity.checkRepoIsStarredByAuthenticatedUser",
  },
  {
    tool: "star_repository",
    args: R,
    request: { method: "PUT", path: "/user/starred/acme/api" },
    operation: "activity.starRepoForAuthenticatedUser",
  },
  {
    tool: "unstar_repository",
    args: R,
    request: { method: "DELETE", path: "/user/starred/acme/api" },
    operation: "activity.unstarRepoForAuthenticatedUser",
  },
  {
    tool: "list_user_starred_repositories",
    args: { username: "alice" },
    request: { method: "GET", path: "/users/alice/starred", query: {} },
    operation: "activity.listReposStarredByUser",
  },
  {
    tool: "list_stargazers",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/stargazers", query: {} },
    operation: "activity.listStargazersForRepo",
  },
  {
    tool: "list_sub_issues",
    args: { ...R, issue_number: 3 },
    request: { method: "GET", path: "/repos/acme/api/issues/3/sub_issues", query: {} },
    operation: "issues.listSubIssues",
  },
  {
    tool: "add_sub_issue",
    args: { ...R, issue_number: 3, sub_issue_id: 42 },
    request: { method: "POST", path: "/repos/acme/api/issues/3/sub_issues", body: { sub_issue_id: 42 } },
    operation: "issues.addSubIssue",
  },
  {
    tool: "remove_sub_issue",
    args: { ...R, issue_number: 3, sub_issue_id: 42 },
    request: { method: "DELETE", path: "/repos/acme/api/issues/3/sub_issue", body: { sub_issue_id: 42 } },
    operation: "issues.removeSubIssue",
  },
  {
    tool: "reprioritize_sub_issue",
    args: { ...R, issue_number: 3, sub_issue_id: 42 },
    request: { method: "PATCH", path: "/repos/acme/api/issues/3/sub_issues/priority", body: { sub_issue_id: 42 } },
    operation: "issues.reprioritizeSubIssue",
  },
  {
    tool: "get_parent_issue",
    args: { ...R, issue_number: 3 },
    request: { method: "GET", path: "/repos/acme/api/issues/3/parent" },
    operation: "issues.getParent",
  },
  {
    tool: "list_collaborators",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/collaborators", query: {} },
    operation: "repos.listCollaborators",
  },
  {
    tool: "check_collaborator",
    args: { ...R, username: "alice" },
    request: { method: "GET", path: "/repos/acme/api/collaborators/alice" },
    operation: "repos.checkCollaborator",
  },
  {
    tool: "add_collaborator",
    args: { ...R, username: "alice" },
    request: { method: "PUT", path: "/repos/acme/api/collaborators/alice", body: {} },
    operation: "repos.addCollaborator",
  },
  {
    tool: "remove_collaborator",
    args: { ...R, username: "alice" },
    request: { method: "DELETE", path: "/repos/acme/api/collaborators/alice" },
    operation: "repos.removeCollaborator",
  },
  {
    tool: "get_collaborator_permission",
    args: { ...R, username: "alice" },
    request: { method: "GET", path: "/repos/acme/api/collaborators/alice/permission" },
    operation: "repos.getCollaboratorPermissionLevel",
  },
  {
    tool: "list_repository_invitations",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/invitations", query: {} },
    operation: "repos.listInvitations",
  },
  {
    tool: "update_repository_invitation",
    args: { ...R, invitation_id: 5 },
    request: { method: "PATCH", path: "/repos/acme/api/invitations/5", body: {} },
    operation: "repos.updateInvitation",
  },
  {
    tool: "delete_repository_invitation",
    args: { ...R, invitation_id: 5 },
    request: { method: "DELETE", path: "/repos/acme/api/invitations/5" },
    operation: "repos.deleteInvitation",
  },
  {
    tool: "list_issues",
    args: { ...R, state: "all", labels: "bug,ui", per_page: 5 },
    request: { method: "GET", path: "/repos/acme/api/issues", query: { state: "all", labels: "bug,ui", per_page: "5" } },
    operation: "issues.listForRepo",
  },
  {
    tool: "get_issue",
    args: { ...R, issue_number: 3 },
    request: { method: "GET", path: "/repos/acme/api/issues/3" },
    operation: "issues.get",
  },
  {
    tool: "create_issue",
    args: { ...R, title: "Crash on start", labels: ["bug"] },
    request: { method: "POST", path: "/repos/acme/api/issues", body: { title: "Crash on start", labels: ["bug"] } },
    operation: "issues.create",
  },
  {
    tool: "update_issue",
    args: { ...R, issue_number: 1, state: "closed", state_reason: "not_planned" },
    request: { method: "PATCH", path: "/repos/acme/api/issues/1", body: { state: "closed", state_reason: "not_planned" } },
    operation: "issues.update",
  },
  {
    tool: "lock_issue",
    args: { ...R, issue_number: 1, lock_reason: "resolved" },
    request: { method: "PUT", path: "/repos/acme/api/issues/1/lock", body: { lock_reason: "resolved" } },
    operation: "issues.lock",
  },
  {
    tool: "unlock_issue",
    args: { ...R, issue_number: 1 },
    request: { method: "DELETE", path: "/repos/acme/api/issues/1/lock" },
    operation: "issues.unlock",
  },
  {
    tool: "list_assignees",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/assignees", query: {} },
    operation: "issues.listAssignees",
  },
  {
    tool: "check_assignee",
    args: { ...R, assignee: "bob" },
    request: { method: "GET", path: "/repos/acme/api/assignees/bob" },
    operation: "issues.checkUserCanBeAssigned",
  },
  {
    tool: "check_issue_assignee",
    args: { ...R, issue_number: 1, assignee: "bob" },
    request: { method: "GET", path: "/repos/acme/api/issues/1/assignees/bob" },
    operation: "issues.checkUserCanBeAssignedToIssue",
  },
  {
    tool: "add_assignees",
    args: { ...R, issue_number: 1, assignees: ["bob"] },
    request: { method: "POST", path: "/repos/acme/api/issues/1/assignees", body: { assignees: ["bob"] } },
    operation: "issues.addAssignees",
  },
  {
    tool: "remove_assignees",
    args: { ...R, issue_number: 1, assignees: ["bob"] },
    request: { method: "DELETE", path: "/repos/acme/api/issues/1/assignees", body: { assignees: ["bob"] } },
    operation: "issues.removeAssignees",
  },
  {
    tool: "search_issues",
    args: { q: "repo:acme/api is:issue timeout", per_page: 10 },
    request: { method: "GET", path: "/search/issues", query: { q: "repo:acme/api is:issue timeout", per_page: "10" } },
    operation: "search.issuesAndPullRequests",
  },
  {
    tool: "list_comments",
    args: { ...R, issue_number: 3 },
    request: { method: "GET", path: "/repos/acme/api/issues/3/comments", query: {} },
    operation: "issues.listComments",
  },
  {
    tool: "list_repository_comments",
    args: { ...R, sort: "updated" },
    request: { method: "GET", path: "/repos/acme/api/issues/comments", query: { sort: "updated" } },
    operation: "issues.listCommentsForRepo",
  },
  {
    tool: "get_comment",
    args: { ...R, comment_id: 42 },
    request: { method: "GET", path: "/repos/acme/api/issues/comments/42" },
    operation: "issues.getComment",
  },
  {
    tool: "create_comment",
    args: { ...R, issue_number: 3, body: "Triaged." },
    request: { method: "POST", path: "/repos/acme/api/issues/3/comments", body: { body: "Triaged." } },
    operation: "issues.createComment",
  },
  {
    tool: "update_comment",
    args: { ...R, comment_id: 42, body: "Edited." },
    request: { method: "PATCH", path: "/repos/acme/api/issues/comments/42", body: { body: "Edited." } },
    operation: "issues.updateComment",
  },
  {
    tool: "delete_comment",
    args: { ...R, comment_id: 42 },
    request: { method: "DELETE", path: "/repos/acme/api/issues/comments/42" },
    operation: "issues.deleteComment",
  },
  {
    tool: "list_labels",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/labels", query: {} },
    operation: "issues.listLabelsForRepo",
  },
  {
    tool: "create_label",
    args: { ...R, name: "triage", color: "ededed" },
    request: { method: "POST", path: "/repos/acme/api/labels", body: { name: "triage", color: "ededed" } },
    operation: "issues.createLabel",
  },
  {
    tool: "get_label",
    args: { ...R, name: "good first issue" },
    request: { method: "GET", path: "/repos/acme/api/labels/good%20first%20issue" },
    operation: "issues.getLabel",
  },
  {
    tool: "update_label",
    args: { ...R, name: "bug", new_name: "defect" },
    request: { method: "PATCH", path: "/repos/acme/api/labels/bug", body: { new_name: "defect" } },
    operation: "issues.updateLabel",
  },
  {
    tool: "delete_label",
    args: { ...R, name: "bug" },
    request: { method: "DELETE", path: "/repos/acme/api/labels/bug" },
    operation: "issues.deleteLabel",
  },
  {
    tool: "list_issue_labels",
    args: { ...R, issue_number: 1 },
    request: { method: "GET", path: "/repos/acme/api/issues/1/labels", query: {} },
    operation: "issues.listLabelsOnIssue",
  },
  {
    tool: "add_labels",
    args: { ...R, issue_number: 1, labels: ["bug"] },
    request: { method: "POST", path: "/repos/acme/api/issues/1/labels", body: { labels: ["bug"] } },
    operation: "issues.addLabels",
  },
  {
    tool: "set_labels",
    args: { ...R, issue_number: 1, labels: [] },
    request: { method: "PUT", path: "/repos/acme/api/issues/1/labels", body: { labels: [] } },
    operation: "issues.setLabels",
  },
  {
    tool: "remove_label",
    args: { ...R, issue_number: 1, name: "good first issue" },
    request: { method: "DELETE", path: "/repos/acme/api/issues/1/labels/good%20first%20issue" },
    operation: "issues.removeLabel",
  },
  {
    tool: "remove_all_labels",
    args: { ...R, issue_number: 1 },
    request: { method: "DELETE", path: "/repos/acme/api/issues/1/labels" },
    operation: "issues.removeAllLabels",
  },
  {
    tool: "list_milestones",
    args: { ...R, state: "all" },
    request: { method: "GET", path: "/repos/acme/api/milestones", query: { state: "all" } },
    operation: "issues.listMilestones",
  },
  {
    tool: "get_milestone",
    args: { ...R, milestone_number: 1 },
    request: { method: "GET", path: "/repos/acme/api/milestones/1" },
    operation: "issues.getMilestone",
  },
  {
    tool: "create_milestone",
    args: { ...R, title: "v1", due_on: null },
    request: { method: "POST", path: "/repos/acme/api/milestones", body: { title: "v1", due_on: null } },
    operation: "issues.createMilestone",
  },
  {
    tool: "update_milestone",
    args: { ...R, milestone_number: 1, state: "closed" },
    request: { method: "PATCH", path: "/repos/acme/api/milestones/1", body: { state: "closed" } },
    operation: "issues.updateMilestone",
  },
  {
    tool: "delete_milestone",
    args: { ...R, milestone_number: 1 },
    request: { method: "DELETE", path: "/repos/acme/api/milestones/1" },
    operation: "issues.deleteMilestone",
  },
  {
    tool: "list_pull_requests",
    args: { ...R, state: "open" },
    request: { method: "GET", path: "/repos/acme/api/pulls", query: { state: "open" } },
    operation: "pulls.list",
  },
  {
    tool: "get_pull_request",
    args: { ...R, pull_number: 4 },
    request: { method: "GET", path: "/repos/acme/api/pulls/4" },
    operation: "pulls.get",
  },
  {
    tool: "create_pull_request",
    args: { ...R, title: "Fix", head: "fix-timeout", base: "main" },
    request: { method: "POST", path: "/repos/acme/api/pulls", body: { title: "Fix", head: "fix-timeout", base: "main" } },
    operation: "pulls.create",
  },
  {
    tool: "update_pull_request",
    args: { ...R, pull_number: 4, state: "closed" },
    request: { method: "PATCH", path: "/repos/acme/api/pulls/4", body: { state: "closed" } },
    operation: "pulls.update",
  },
  {
    tool: "merge_pull_request",
    args: { ...R, pull_number: 4, merge_method: "squash" },
    request: { method: "PUT", path: "/repos/acme/api/pulls/4/merge", body: { merge_method: "squash" } },
    operation: "pulls.merge",
  },
  {
    tool: "list_pull_request_files",
    args: { ...R, pull_number: 4 },
    request: { method: "GET", path: "/repos/acme/api/pulls/4/files", query: {} },
    operation: "pulls.listFiles",
  },
  {
    tool: "list_pull_request_commits",
    args: { ...R, pull_number: 4 },
    request: { method: "GET", path: "/repos/acme/api/pulls/4/commits", query: {} },
    operation: "pulls.listCommits",
  },
  {
    tool: "check_pull_request_merged",
    args: { ...R, pull_number: 4 },
    request: { method: "GET", path: "/repos/acme/api/pulls/4/merge" },
    operation: "pulls.checkIfMerged",
  },
  {
    tool: "list_requested_reviewers",
    args: { ...R, pull_number: 4 },
    request: { method: "GET", path: "/repos/acme/api/pulls/4/requested_reviewers" },
    operation: "pulls.listRequestedReviewers",
  },
  {
    tool: "request_reviewers",
    args: { ...R, pull_number: 4, reviewers: ["alice"] },
    request: { method: "POST", path: "/repos/acme/api/pulls/4/requested_reviewers", body: { reviewers: ["alice"] } },
    operation: "pulls.requestReviewers",
  },
  {
    tool: "remove_requested_reviewers",
    args: { ...R, pull_number: 4, reviewers: ["alice"] },
    request: { method: "DELETE", path: "/repos/acme/api/pulls/4/requested_reviewers", body: { reviewers: ["alice"] } },
    operation: "pulls.removeRequestedReviewers",
  },
  {
    tool: "list_reviews",
    args: { ...R, pull_number: 4 },
    request: { method: "GET", path: "/repos/acme/api/pulls/4/reviews", query: {} },
    operation: "pulls.listReviews",
  },
  {
    tool: "create_review",
    args: { ...R, pull_number: 4, event: "APPROVE", body: "LGTM" },
    request: { method: "POST", path: "/repos/acme/api/pulls/4/reviews", body: { event: "APPROVE", body: "LGTM" } },
    operation: "pulls.createReview",
  },
  {
    tool: "get_review",
    args: { ...R, pull_number: 4, review_id: 9 },
    request: { method: "GET", path: "/repos/acme/api/pulls/4/reviews/9" },
    operation: "pulls.getReview",
  },
  {
    tool: "update_review",
    args: { ...R, pull_number: 4, review_id: 9, body: "Better" },
    request: { method: "PUT", path: "/repos/acme/api/pulls/4/reviews/9", body: { body: "Better" } },
    operation: "pulls.updateReview",
  },
  {
    tool: "submit_review",
    args: { ...R, pull_number: 4, review_id: 9, event: "REQUEST_CHANGES", body: "Add a test" },
    request: { method: "POST", path: "/repos/acme/api/pulls/4/reviews/9/events", body: { event: "REQUEST_CHANGES", body: "Add a test" } },
    operation: "pulls.submitReview",
  },
  {
    tool: "delete_pending_review",
    args: { ...R, pull_number: 4, review_id: 9 },
    request: { method: "DELETE", path: "/repos/acme/api/pulls/4/reviews/9" },
    operation: "pulls.deletePendingReview",
  },
  {
    tool: "dismiss_review",
    args: { ...R, pull_number: 4, review_id: 9, message: "Stale" },
    request: { method: "PUT", path: "/repos/acme/api/pulls/4/reviews/9/dismissals", body: { message: "Stale" } },
    operation: "pulls.dismissReview",
  },
  {
    tool: "get_file_contents",
    args: { ...R, path: "src/my file.ts", ref: "fix-timeout" },
    request: { method: "GET", path: "/repos/acme/api/contents/src/my%20file.ts", query: { ref: "fix-timeout" } },
    operation: "repos.getContent",
  },
  {
    tool: "create_or_update_file",
    args: { ...R, path: "docs/ü.md", content: "héllo\n", message: "Add docs", branch: "main" },
    request: {
      method: "PUT",
      path: "/repos/acme/api/contents/docs/%C3%BC.md",
      body: { message: "Add docs", content: "aMOpbGxvCg==", branch: "main" },
    },
    operation: "repos.createOrUpdateFileContents",
  },
  {
    tool: "delete_file",
    args: { ...R, path: "README.md", message: "Remove", sha: "abc" },
    request: { method: "DELETE", path: "/repos/acme/api/contents/README.md", body: { message: "Remove", sha: "abc" } },
    operation: "repos.deleteFile",
  },
  {
    tool: "list_branches",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/branches", query: {} },
    operation: "repos.listBranches",
  },
  {
    tool: "get_branch",
    args: { ...R, branch: "feature/x" },
    request: { method: "GET", path: "/repos/acme/api/branches/feature%2Fx" },
    operation: "repos.getBranch",
  },
  {
    tool: "create_branch",
    args: { ...R, branch: "fix-typo", sha: "0123456789abcdef0123456789abcdef01234567" },
    request: {
      method: "POST",
      path: "/repos/acme/api/git/refs",
      body: { ref: "refs/heads/fix-typo", sha: "0123456789abcdef0123456789abcdef01234567" },
    },
    operation: "git.createRef",
  },
  {
    tool: "list_commits",
    args: { ...R, sha: "main" },
    request: { method: "GET", path: "/repos/acme/api/commits", query: { sha: "main" } },
    operation: "repos.listCommits",
  },
  {
    tool: "update_branch",
    args: { ...R, branch: "feature/x", sha: "abc", force: true },
    request: { method: "PATCH", path: "/repos/acme/api/git/refs/heads/feature/x", body: { sha: "abc", force: true } },
    operation: "git.updateRef",
  },
  {
    tool: "delete_branch",
    args: { ...R, branch: "fix-timeout" },
    request: { method: "DELETE", path: "/repos/acme/api/git/refs/heads/fix-timeout" },
    operation: "git.deleteRef",
  },
  {
    tool: "get_ref",
    args: { ...R, ref: "refs/heads/main" },
    request: { method: "GET", path: "/repos/acme/api/git/ref/heads/main" },
    operation: "git.getRef",
  },
  {
    tool: "list_matching_refs",
    args: { ...R, ref: "heads/fix" },
    request: { method: "GET", path: "/repos/acme/api/git/matching-refs/heads/fix" },
    operation: "git.listMatchingRefs",
  },
  {
    tool: "get_commit",
    args: { ...R, ref: "main" },
    request: { method: "GET", path: "/repos/acme/api/commits/main" },
    operation: "repos.getCommit",
  },
  {
    tool: "get_combined_status",
    args: { ...R, ref: "fix-timeout" },
    request: { method: "GET", path: "/repos/acme/api/commits/fix-timeout/status" },
    operation: "repos.getCombinedStatusForRef",
  },
  {
    tool: "list_commit_statuses",
    args: { ...R, ref: "fix-timeout" },
    request: { method: "GET", path: "/repos/acme/api/commits/fix-timeout/statuses", query: {} },
    operation: "repos.listCommitStatusesForRef",
  },
  {
    tool: "create_commit_status",
    args: { ...R, sha: "abc123", state: "success", context: "ci/build" },
    request: { method: "POST", path: "/repos/acme/api/statuses/abc123", body: { state: "success", context: "ci/build" } },
    operation: "repos.createCommitStatus",
  },
  // The authenticated user's issues across repositories.
  {
    tool: "list_my_issues",
    args: { filter: "created", state: "all" },
    request: { method: "GET", path: "/issues", query: { filter: "created", state: "all" } },
    operation: "issues.list",
  },
  {
    tool: "list_user_account_issues",
    args: { filter: "all" },
    request: { method: "GET", path: "/user/issues", query: { filter: "all" } },
    operation: "issues.listForAuthenticatedUser",
  },
  {
    tool: "list_organization_issues",
    args: { org: "acme", labels: "bug" },
    request: { method: "GET", path: "/orgs/acme/issues", query: { labels: "bug" } },
    operation: "issues.listForOrg",
  },
  // Branch protection and its sub-resources.
  {
    tool: "get_branch_protection",
    args: { ...R, branch: "main" },
    request: { method: "GET", path: "/repos/acme/api/branches/main/protection" },
    operation: "repos.getBranchProtection",
  },
  {
    tool: "update_branch_protection",
    args: {
      ...R,
      branch: "main",
      required_status_checks: { strict: true, contexts: ["ci"] },
      enforce_admins: false,
      required_pull_request_reviews: { required_approving_review_count: 1 },
      restrictions: null,
    },
    request: {
      method: "PUT",
      path: "/repos/acme/api/branches/main/protection",
      body: {
        required_status_checks: { strict: true, contexts: ["ci"] },
        enforce_admins: false,
        required_pull_request_reviews: { required_approving_review_count: 1 },
        restrictions: null,
      },
    },
    operation: "repos.updateBranchProtection",
  },
  {
    tool: "delete_branch_protection",
    args: { ...R, branch: "main" },
    request: { method: "DELETE", path: "/repos/acme/api/branches/main/protection" },
    operation: "repos.deleteBranchProtection",
  },
  {
    tool: "get_required_status_checks",
    args: { ...R, branch: "main" },
    request: { method: "GET", path: "/repos/acme/api/branches/main/protection/required_status_checks" },
    operation: "repos.getStatusChecksProtection",
  },
  {
    tool: "update_required_status_checks",
    args: { ...R, branch: "main", contexts: ["ci", "lint"] },
    request: {
      method: "PATCH",
      path: "/repos/acme/api/branches/main/protection/required_status_checks",
      body: { contexts: ["ci", "lint"] },
    },
    operation: "repos.updateStatusCheckProtection",
  },
  {
    tool: "get_required_reviews",
    args: { ...R, branch: "main" },
    request: { method: "GET", path: "/repos/acme/api/branches/main/protection/required_pull_request_reviews" },
    operation: "repos.getPullRequestReviewProtection",
  },
  {
    tool: "update_required_reviews",
    args: { ...R, branch: "main", required_approving_review_count: 2 },
    request: {
      method: "PATCH",
      path: "/repos/acme/api/branches/main/protection/required_pull_request_reviews",
      body: { required_approving_review_count: 2 },
    },
    operation: "repos.updatePullRequestReviewProtection",
  },
  {
    tool: "delete_required_reviews",
    args: { ...R, branch: "main" },
    request: { method: "DELETE", path: "/repos/acme/api/branches/main/protection/required_pull_request_reviews" },
    operation: "repos.deletePullRequestReviewProtection",
  },
  {
    tool: "get_admin_branch_protection",
    args: { ...R, branch: "main" },
    request: { method: "GET", path: "/repos/acme/api/branches/main/protection/enforce_admins" },
    operation: "repos.getAdminBranchProtection",
  },
  {
    tool: "set_admin_branch_protection",
    args: { ...R, branch: "main" },
    request: { method: "POST", path: "/repos/acme/api/branches/main/protection/enforce_admins" },
    operation: "repos.setAdminBranchProtection",
  },
  {
    tool: "delete_admin_branch_protection",
    args: { ...R, branch: "main" },
    request: { method: "DELETE", path: "/repos/acme/api/branches/main/protection/enforce_admins" },
    operation: "repos.deleteAdminBranchProtection",
  },
  // The git database: several files in one commit without a working copy.
  {
    tool: "create_blob",
    args: { ...R, content: "hello\n", encoding: "utf-8" },
    request: { method: "POST", path: "/repos/acme/api/git/blobs", body: { content: "hello\n", encoding: "utf-8" } },
    operation: "git.createBlob",
  },
  {
    tool: "get_blob",
    args: { ...R, file_sha: "b10b" },
    request: { method: "GET", path: "/repos/acme/api/git/blobs/b10b" },
    operation: "git.getBlob",
  },
  {
    tool: "create_tree",
    args: {
      ...R,
      base_tree: "7ree",
      tree: [
        { path: "src/a.ts", mode: "100644", type: "blob", content: "export {};\n" },
        { path: "old.ts", mode: "100644", sha: null },
      ],
    },
    request: {
      method: "POST",
      path: "/repos/acme/api/git/trees",
      body: {
        base_tree: "7ree",
        tree: [
          { path: "src/a.ts", mode: "100644", type: "blob", content: "export {};\n" },
          { path: "old.ts", mode: "100644", sha: null },
        ],
      },
    },
    operation: "git.createTree",
  },
  {
    tool: "get_tree",
    args: { ...R, tree_sha: "main", recursive: true },
    request: { method: "GET", path: "/repos/acme/api/git/trees/main", query: { recursive: "1" } },
    operation: "git.getTree",
  },
  {
    tool: "create_git_commit",
    args: { ...R, message: "Add files", tree: "7ree", parents: ["c0ffee"], author: { name: "Alice", email: "alice@example.com" } },
    request: {
      method: "POST",
      path: "/repos/acme/api/git/commits",
      body: { message: "Add files", tree: "7ree", parents: ["c0ffee"], author: { name: "Alice", email: "alice@example.com" } },
    },
    operation: "git.createCommit",
  },
  {
    tool: "get_git_commit",
    args: { ...R, commit_sha: "c0ffee" },
    request: { method: "GET", path: "/repos/acme/api/git/commits/c0ffee" },
    operation: "git.getCommit",
  },
  {
    tool: "create_tag_object",
    args: { ...R, tag: "v1.0.0", message: "First release", object: "c0ffee", type: "commit" },
    request: {
      method: "POST",
      path: "/repos/acme/api/git/tags",
      body: { tag: "v1.0.0", message: "First release", object: "c0ffee", type: "commit" },
    },
    operation: "git.createTag",
  },
  {
    tool: "get_tag_object",
    args: { ...R, tag_sha: "7a9" },
    request: { method: "GET", path: "/repos/acme/api/git/tags/7a9" },
    operation: "git.getTag",
  },
  // Reactions, on issues, issue comments and inline review comments.
  {
    tool: "list_issue_reactions",
    args: { ...R, issue_number: 3, content: "+1" },
    request: { method: "GET", path: "/repos/acme/api/issues/3/reactions", query: { content: "+1" } },
    operation: "reactions.listForIssue",
  },
  {
    tool: "add_issue_reaction",
    args: { ...R, issue_number: 3, content: "heart" },
    request: { method: "POST", path: "/repos/acme/api/issues/3/reactions", body: { content: "heart" } },
    operation: "reactions.createForIssue",
  },
  {
    tool: "delete_issue_reaction",
    args: { ...R, issue_number: 3, reaction_id: 7 },
    request: { method: "DELETE", path: "/repos/acme/api/issues/3/reactions/7" },
    operation: "reactions.deleteForIssue",
  },
  {
    tool: "list_issue_comment_reactions",
    args: { ...R, comment_id: 42 },
    request: { method: "GET", path: "/repos/acme/api/issues/comments/42/reactions", query: {} },
    operation: "reactions.listForIssueComment",
  },
  {
    tool: "add_issue_comment_reaction",
    args: { ...R, comment_id: 42, content: "rocket" },
    request: { method: "POST", path: "/repos/acme/api/issues/comments/42/reactions", body: { content: "rocket" } },
    operation: "reactions.createForIssueComment",
  },
  {
    tool: "delete_issue_comment_reaction",
    args: { ...R, comment_id: 42, reaction_id: 7 },
    request: { method: "DELETE", path: "/repos/acme/api/issues/comments/42/reactions/7" },
    operation: "reactions.deleteForIssueComment",
  },
  {
    tool: "list_review_comment_reactions",
    args: { ...R, comment_id: 51, per_page: 5 },
    request: { method: "GET", path: "/repos/acme/api/pulls/comments/51/reactions", query: { per_page: "5" } },
    operation: "reactions.listForPullRequestReviewComment",
  },
  {
    tool: "add_review_comment_reaction",
    args: { ...R, comment_id: 51, content: "eyes" },
    request: { method: "POST", path: "/repos/acme/api/pulls/comments/51/reactions", body: { content: "eyes" } },
    operation: "reactions.createForPullRequestReviewComment",
  },
  {
    tool: "delete_review_comment_reaction",
    args: { ...R, comment_id: 51, reaction_id: 7 },
    request: { method: "DELETE", path: "/repos/acme/api/pulls/comments/51/reactions/7" },
    operation: "reactions.deleteForPullRequestComment",
  },
  // Issue events and timelines.
  {
    tool: "list_issue_events",
    args: { ...R, issue_number: 3 },
    request: { method: "GET", path: "/repos/acme/api/issues/3/events", query: {} },
    operation: "issues.listEvents",
  },
  {
    tool: "list_repository_issue_events",
    args: { ...R, per_page: 10 },
    request: { method: "GET", path: "/repos/acme/api/issues/events", query: { per_page: "10" } },
    operation: "issues.listEventsForRepo",
  },
  {
    tool: "get_issue_event",
    args: { ...R, event_id: 12 },
    request: { method: "GET", path: "/repos/acme/api/issues/events/12" },
    operation: "issues.getEvent",
  },
  {
    tool: "list_issue_timeline",
    args: { ...R, issue_number: 3, page: 2 },
    request: { method: "GET", path: "/repos/acme/api/issues/3/timeline", query: { page: "2" } },
    operation: "issues.listEventsForTimeline",
  },
  // Inline review comments and a pull request's branch.
  {
    tool: "list_review_comments",
    args: { ...R, pull_number: 4, since: "2026-01-31T00:00:00Z" },
    request: { method: "GET", path: "/repos/acme/api/pulls/4/comments", query: { since: "2026-01-31T00:00:00Z" } },
    operation: "pulls.listReviewComments",
  },
  {
    tool: "list_repository_review_comments",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/pulls/comments", query: {} },
    operation: "pulls.listReviewCommentsForRepo",
  },
  {
    tool: "get_review_comment",
    args: { ...R, comment_id: 51 },
    request: { method: "GET", path: "/repos/acme/api/pulls/comments/51" },
    operation: "pulls.getReviewComment",
  },
  {
    tool: "create_review_comment",
    args: { ...R, pull_number: 4, body: "Off by one", commit_id: "c0ffee", path: "src/a.ts", line: 12, side: "RIGHT" },
    request: {
      method: "POST",
      path: "/repos/acme/api/pulls/4/comments",
      body: { body: "Off by one", commit_id: "c0ffee", path: "src/a.ts", line: 12, side: "RIGHT" },
    },
    operation: "pulls.createReviewComment",
  },
  {
    tool: "reply_to_review_comment",
    args: { ...R, pull_number: 4, comment_id: 51, body: "Fixed." },
    request: { method: "POST", path: "/repos/acme/api/pulls/4/comments/51/replies", body: { body: "Fixed." } },
    operation: "pulls.createReplyForReviewComment",
  },
  {
    tool: "update_review_comment",
    args: { ...R, comment_id: 51, body: "Off by two" },
    request: { method: "PATCH", path: "/repos/acme/api/pulls/comments/51", body: { body: "Off by two" } },
    operation: "pulls.updateReviewComment",
  },
  {
    tool: "delete_review_comment",
    args: { ...R, comment_id: 51 },
    request: { method: "DELETE", path: "/repos/acme/api/pulls/comments/51" },
    operation: "pulls.deleteReviewComment",
  },
  {
    tool: "list_review_comments_of_review",
    args: { ...R, pull_number: 4, review_id: 9 },
    request: { method: "GET", path: "/repos/acme/api/pulls/4/reviews/9/comments", query: {} },
    operation: "pulls.listCommentsForReview",
  },
  {
    tool: "update_pull_request_branch",
    args: { ...R, pull_number: 4, expected_head_sha: "c0ffee" },
    request: { method: "PUT", path: "/repos/acme/api/pulls/4/update-branch", body: { expected_head_sha: "c0ffee" } },
    operation: "pulls.updateBranch",
  },
  // Comparisons and READMEs.
  {
    tool: "compare_commits",
    args: { ...R, base: "main", head: "feature/x" },
    request: { method: "GET", path: "/repos/acme/api/compare/main...feature%2Fx" },
    operation: "repos.compareCommitsWithBasehead",
  },
  { tool: "get_readme", args: R, request: { method: "GET", path: "/repos/acme/api/readme", query: {} }, operation: "repos.getReadme" },
  {
    tool: "get_directory_readme",
    args: { ...R, dir: "docs/api", ref: "main" },
    request: { method: "GET", path: "/repos/acme/api/readme/docs/api", query: { ref: "main" } },
    operation: "repos.getReadmeInDirectory",
  },
  // Releases and tags.
  {
    tool: "list_releases",
    args: { ...R, per_page: 5 },
    request: { method: "GET", path: "/repos/acme/api/releases", query: { per_page: "5" } },
    operation: "repos.listReleases",
  },
  {
    tool: "get_latest_release",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/releases/latest" },
    operation: "repos.getLatestRelease",
  },
  {
    tool: "get_release",
    args: { ...R, release_id: 2 },
    request: { method: "GET", path: "/repos/acme/api/releases/2" },
    operation: "repos.getRelease",
  },
  {
    tool: "get_release_by_tag",
    args: { ...R, tag: "v1.0.0" },
    request: { method: "GET", path: "/repos/acme/api/releases/tags/v1.0.0" },
    operation: "repos.getReleaseByTag",
  },
  {
    tool: "list_release_assets",
    args: { ...R, release_id: 2 },
    request: { method: "GET", path: "/repos/acme/api/releases/2/assets", query: {} },
    operation: "repos.listReleaseAssets",
  },
  {
    tool: "create_release",
    args: { ...R, tag_name: "v1.1.0", target_commitish: "main", name: "v1.1.0", generate_release_notes: true },
    request: {
      method: "POST",
      path: "/repos/acme/api/releases",
      body: { tag_name: "v1.1.0", target_commitish: "main", name: "v1.1.0", generate_release_notes: true },
    },
    operation: "repos.createRelease",
  },
  {
    tool: "update_release",
    args: { ...R, release_id: 2, draft: false },
    request: { method: "PATCH", path: "/repos/acme/api/releases/2", body: { draft: false } },
    operation: "repos.updateRelease",
  },
  {
    tool: "delete_release",
    args: { ...R, release_id: 2 },
    request: { method: "DELETE", path: "/repos/acme/api/releases/2" },
    operation: "repos.deleteRelease",
  },
  {
    tool: "generate_release_notes",
    args: { ...R, tag_name: "v1.1.0", previous_tag_name: "v1.0.0" },
    request: {
      method: "POST",
      path: "/repos/acme/api/releases/generate-notes",
      body: { tag_name: "v1.1.0", previous_tag_name: "v1.0.0" },
    },
    operation: "repos.generateReleaseNotes",
  },
  { tool: "list_tags", args: R, request: { method: "GET", path: "/repos/acme/api/tags", query: {} }, operation: "repos.listTags" },
  // Actions, checks and repository webhooks (routes/actions.ts, checks.ts, hooks.ts).
  {
    tool: "list_workflows",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/actions/workflows", query: {} },
    operation: "actions.listRepoWorkflows",
  },
  {
    tool: "get_workflow",
    args: { ...R, workflow_id: "ci.yml" },
    request: { method: "GET", path: "/repos/acme/api/actions/workflows/ci.yml" },
    operation: "actions.getWorkflow",
  },
  {
    tool: "run_workflow",
    args: { ...R, workflow_id: "ci.yml", ref: "main" },
    request: { method: "POST", path: "/repos/acme/api/actions/workflows/ci.yml/dispatches", body: { ref: "main" } },
    operation: "actions.createWorkflowDispatch",
  },
  {
    tool: "list_workflow_runs_for_workflow",
    args: { ...R, workflow_id: "ci.yml", branch: "main" },
    request: { method: "GET", path: "/repos/acme/api/actions/workflows/ci.yml/runs", query: { branch: "main" } },
    operation: "actions.listWorkflowRuns",
  },
  {
    tool: "list_workflow_runs",
    args: { ...R, status: "failure" },
    request: { method: "GET", path: "/repos/acme/api/actions/runs", query: { status: "failure" } },
    operation: "actions.listWorkflowRunsForRepo",
  },
  {
    tool: "get_workflow_run",
    args: { ...R, run_id: 7 },
    request: { method: "GET", path: "/repos/acme/api/actions/runs/7" },
    operation: "actions.getWorkflowRun",
  },
  {
    tool: "delete_workflow_run",
    args: { ...R, run_id: 7 },
    request: { method: "DELETE", path: "/repos/acme/api/actions/runs/7" },
    operation: "actions.deleteWorkflowRun",
  },
  {
    tool: "rerun_workflow_run",
    args: { ...R, run_id: 7 },
    request: { method: "POST", path: "/repos/acme/api/actions/runs/7/rerun", body: {} },
    operation: "actions.reRunWorkflow",
  },
  {
    tool: "rerun_failed_jobs",
    args: { ...R, run_id: 7 },
    request: { method: "POST", path: "/repos/acme/api/actions/runs/7/rerun-failed-jobs", body: {} },
    operation: "actions.reRunWorkflowFailedJobs",
  },
  {
    tool: "cancel_workflow_run",
    args: { ...R, run_id: 7 },
    request: { method: "POST", path: "/repos/acme/api/actions/runs/7/cancel" },
    operation: "actions.cancelWorkflowRun",
  },
  {
    tool: "list_workflow_jobs",
    args: { ...R, run_id: 7, filter: "all" },
    request: { method: "GET", path: "/repos/acme/api/actions/runs/7/jobs", query: { filter: "all" } },
    operation: "actions.listJobsForWorkflowRun",
  },
  {
    tool: "get_workflow_job",
    args: { ...R, job_id: 8 },
    request: { method: "GET", path: "/repos/acme/api/actions/jobs/8" },
    operation: "actions.getJobForWorkflowRun",
  },
  {
    tool: "get_job_logs",
    args: { ...R, job_id: 8 },
    request: { method: "GET", path: "/repos/acme/api/actions/jobs/8/logs" },
    operation: "actions.downloadJobLogsForWorkflowRun",
  },
  {
    tool: "get_artifact",
    args: { ...R, artifact_id: 610 },
    request: { method: "GET", path: "/repos/acme/api/actions/artifacts/610" },
    operation: "actions.getArtifact",
  },
  {
    tool: "download_artifact",
    args: { ...R, artifact_id: 610, archive_format: "zip" },
    request: { method: "GET", path: "/repos/acme/api/actions/artifacts/610/zip" },
    operation: "actions.downloadArtifact",
  },
  {
    tool: "list_artifacts",
    args: R,
    request: { method: "GET", path: "/repos/acme/api/actions/artifacts", query: {} },
    operation: "actions.listArtifactsForRepo",
  },
  {
    tool: "list_workflow_run_artifacts",
    args: { ...R, run_id: 7 },
    request: { method: "GET", path: "/repos/acme/api/actions/runs/7/artifacts", query: {} },
    operation: "actions.listWorkflowRunArtifacts",
  },
  {
    tool: "create_check_run",
    args: { ...R, name: "lint", head_sha: "main", conclusion: "success" },
    request: { method: "POST", path: "/repos/acme/api/check-runs", body: { name: "lint", head_sha: "main", conclusion: "success" } },
    operation: "checks.create",
  },
  {
    tool: "update_check_run",
    args: { ...R, check_run_id: 9, status: "in_progress" },
    request: { method: "PATCH", path: "/repos/acme/api/check-runs/9", body: { status: "in_progress" } },
    operation: "checks.update",
  },
  {
    tool: "get_check_run",
    args: { ...R, check_run_id: 9 },
    request: { method: "GET", path: "/repos/acme/api/check-runs/9" },
    operation: "checks.get",
  },
  {
    tool: "list_check_run_annotations",
    args: { ...R, check_run_id: 9 },
    request: { method: "GET", path: "/repos/acme/api/check-runs/9/annotations", query: {} },
    operation: "checks.listAnnotations",
  },
  {
    tool: "list_check_runs_for_ref",
    args: { ...R, ref: "main", check_name: "lint" },
    request: { method: "GET", path: "/repos/acme/api/commits/main/check-runs", query: { check_name: "lint" } },
    operation: "checks.listForRef",
  },
  {
    tool: "list_check_runs_for_suite",
    args: { ...R, check_suite_id: 5 },
    request: { method: "GET", path: "/repos/acme/api/check-suites/5/check-runs", query: {} },
    operation: "checks.listForSuite",
  },
  {
    tool: "create_check_suite",
    args: { ...R, head_sha: "main" },
    request: { method: "POST", path: "/repos/acme/api/check-suites", body: { head_sha: "main" } },
    operation: "checks.createSuite",
  },
  {
    tool: "get_check_suite",
    args: { ...R, check_suite_id: 5 },
    request: { method: "GET", path: "/repos/acme/api/check-suites/5" },
    operation: "checks.getSuite",
  },
  {
    tool: "rerequest_check_suite",
    args: { ...R, check_suite_id: 5 },
    request: { method: "POST", path: "/repos/acme/api/check-suites/5/rerequest" },
    operation: "checks.rerequestSuite",
  },
  {
    tool: "list_check_suites_for_ref",
    args: { ...R, ref: "main" },
    request: { method: "GET", path: "/repos/acme/api/commits/main/check-suites", query: {} },
    operation: "checks.listSuitesForRef",
  },
  { tool: "list_repo_hooks", args: R, request: { method: "GET", path: "/repos/acme/api/hooks" }, operation: "repos.listWebhooks" },
  {
    tool: "create_repo_hook",
    args: { ...R, config: { url: "https://example.com/hook" }, events: ["issues"] },
    request: { method: "POST", path: "/repos/acme/api/hooks", body: { config: { url: "https://example.com/hook" }, events: ["issues"] } },
    operation: "repos.createWebhook",
  },
  {
    tool: "get_repo_hook",
    args: { ...R, hook_id: 3 },
    request: { method: "GET", path: "/repos/acme/api/hooks/3" },
    operation: "repos.getWebhook",
  },
  {
    tool: "update_repo_hook",
    args: { ...R, hook_id: 3, active: false },
    request: { method: "PATCH", path: "/repos/acme/api/hooks/3", body: { active: false } },
    operation: "repos.updateWebhook",
  },
  {
    tool: "delete_repo_hook",
    args: { ...R, hook_id: 3 },
    request: { method: "DELETE", path: "/repos/acme/api/hooks/3" },
    operation: "repos.deleteWebhook",
  },
  {
    tool: "ping_repo_hook",
    args: { ...R, hook_id: 3 },
    request: { method: "POST", path: "/repos/acme/api/hooks/3/pings" },
    operation: "repos.pingWebhook",
  },
  {
    tool: "test_repo_hook",
    args: { ...R, hook_id: 3 },
    request: { method: "POST", path: "/repos/acme/api/hooks/3/tests" },
    operation: "repos.testPushWebhook",
  },
  {
    tool: "list_hook_deliveries",
    args: { ...R, hook_id: 3 },
    request: { method: "GET", path: "/repos/acme/api/hooks/3/deliveries", query: {} },
    operation: "repos.listWebhookDeliveries",
  },
  {
    tool: "get_hook_delivery",
    args: { ...R, hook_id: 3, delivery_id: 4 },
    request: { method: "GET", path: "/repos/acme/api/hooks/3/deliveries/4" },
    operation: "repos.getWebhookDelivery",
  },
  {
    tool: "redeliver_hook_delivery",
    args: { ...R, hook_id: 3, delivery_id: 4 },
    request: { method: "POST", path: "/repos/acme/api/hooks/3/deliveries/4/attempts" },
    operation: "repos.redeliverWebhookDelivery",
  },
];

const byName = new Map(githubTools.map((t) => [t.name, t]));
const toolNamed = (name: string): TwinTool => {
  const found = byName.get(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

describe("GitHub's MCP tools are typed fronts for its REST operations", () => {
  it("names every tool once, in snake_case, with a description a model can act on", () => {
    expect(new Set(githubTools.map((t) => t.name)).size).toBe(githubTools.length);
    for (const t of githubTools) {
      expect(t.name).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
      expect(t.description.length).toBeGreaterThan(30);
    }
  });

  it("tests the mapping of every tool", () => {
    expect(CASES.map((c) => c.tool).sort()).toEqual(githubTools.map((t) => t.name).sort());
  });

  it.each(CASES)("$tool maps its arguments onto $request.method $request.path", ({ tool, args, request }) => {
    expect(toolNamed(tool).toRequest(args)).toEqual(request);
  });

  it.each(CASES)("$tool reaches the twin's $operation route", ({ tool, args, operation }) => {
    const { method, path } = toolNamed(tool).toRequest(args);
    expect(matchRoute(githubTwin, method, path)?.route.operation).toBe(operation);
  });

  it("offers a tool for every REST operation the twin implements", () => {
    // GraphQL and the /api/v3 mount are transports, not REST operations: the twin says why they have no tool.
    const untooled = Object.keys(githubTwin.untooledOperations ?? {});
    const covered = new Set([...CASES.map((c) => c.operation), ...untooled]);
    expect(githubTwin.routes.map((r) => r.operation).filter((op) => !covered.has(op))).toEqual([]);
  });

  it("marks reads read-only and overwrites or deletions destructive", () => {
    for (const c of CASES) {
      const t = toolNamed(c.tool);
      // GitHub's generate-notes is a POST that only computes an answer and stores nothing.
      const readsOnly = c.request.method === "GET" || c.tool === "generate_release_notes";
      expect(t.readOnly, c.tool).toBe(readsOnly);
      // Unlocking takes nothing away; every other DELETE does.
      if (c.request.method === "DELETE" && c.tool !== "unlock_issue") expect(t.destructive, c.tool).toBe(true);
      if (c.request.method === "POST") expect(t.destructive, c.tool).toBe(false);
    }
  });
});

describe("tool arguments are checked before any call is made", () => {
  it("refuses a misspelt argument instead of dropping it", () => {
    expect(() => toolNamed("get_issue").toRequest({ ...R, issue_numbr: 1 })).toThrow(z.ZodError);
  });

  it("refuses an argument of the wrong type", () => {
    expect(() => toolNamed("get_issue").toRequest({ ...R, issue_number: "1" })).toThrow(z.ZodError);
    expect(() => toolNamed("add_labels").toRequest({ ...R, issue_number: 1, labels: [] })).toThrow(z.ZodError);
  });

  it("publishes input schemas that forbid unknown keys", () => {
    const schema = z.toJSONSchema(toolNamed("create_comment").input) as { required?: string[]; additionalProperties?: boolean };
    expect(schema.required).toEqual(["owner", "repo", "issue_number", "body"]);
    expect(schema.additionalProperties).toBe(false);
  });

  it("reads the repository root when get_file_contents has an empty path", () => {
    expect(toolNamed("get_file_contents").toRequest({ ...R, path: "" })).toEqual({
      method: "GET",
      path: "/repos/acme/api/contents",
      query: {},
    });
  });
});
