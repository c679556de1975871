// Row shapes of the gh_ tables, as SQLite hands them back (booleans are 0/1).
import type { GithubIssue } from "../seed";

export interface IssueRow {
  id: number;
  repo_id: number;
  number: number;
  is_pull: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  state_reason: GithubIssue["state_reason"];
  user: string;
  milestone: number | null;
  locked: number;
  active_lock_reason: GithubIssue["active_lock_reason"];
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by: string | null;
  comment_count: number;
  head: string | null;
  base: string | null;
  draft: number | null;
  merged: number | null;
  merged_at: string | null;
  merged_by: string | null;
  merge_commit_sha: string | null;
  requested_reviewers: string | null;
  /** A closed pull request's head commit, frozen when it closed; null while open (the branch is live). */
  head_sha: string | null;
}

export interface LabelRow {
  id: number;
  repo_id: number;
  name: string;
  color: string;
  description: string | null;
  position: number;
}

export interface CommentRow {
  id: number;
  repo_id: number;
  issue_number: number;
  user: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface MilestoneRow {
  id: number;
  repo_id: number;
  number: number;
  title: string;
  state: "open" | "closed";
  description: string | null;
  due_on: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  creator: string | null;
}

export interface ReviewRow {
  id: number;
  repo_id: number;
  pull_number: number;
  user: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED" | "PENDING";
  body: string;
  submitted_at: string | null;
  commit_id: string | null;
}

export interface StatusRow {
  id: number;
  repo_id: number;
  ref: string;
  sha: string;
  context: string;
  state: "error" | "failure" | "pending" | "success";
  description: string | null;
  target_url: string | null;
  creator: string;
  created_at: string;
}
