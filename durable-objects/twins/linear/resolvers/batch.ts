// issueBatchCreate: several IssueCreateInputs in one call, created in order (identifiers follow
// the list), with one sync id. Any refused input refuses the whole call and creates none (the
// sandbox rolls a refused call back). Linear publishes no cap for a batch; the twin takes at most
// 50 issues a call (invalid input past it) so that one call's cost stays bounded.
import type { Gql } from "../context";
import { Unsupported, invalidInput } from "../errors";
import { ISSUE_CREATE_FIELDS, createIssue, syncId } from "./mutation";
import type { Args, Resolver } from "./types";

export const MAX_BATCH_ISSUES = 50;

function issueBatchCreate(gql: Gql, args: Args) {
  const input = args.input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw invalidInput("IssueBatchCreateInput is required");
  const { issues, ...rest } = input as Record<string, unknown>;
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) throw new Unsupported(`the input field \`IssueBatchCreateInput.${k}\``);
  if (!Array.isArray(issues) || issues.length === 0) throw invalidInput("issues must not be empty", "Give at least one issue to create.");
  if (issues.length > MAX_BATCH_ISSUES)
    throw invalidInput(`issues takes at most ${MAX_BATCH_ISSUES} items`, `Create at most ${MAX_BATCH_ISSUES} issues at a time.`);
  const created = issues.map((one, i) => {
    if (typeof one !== "object" || one === null || Array.isArray(one)) throw invalidInput(`issues[${i}] must be an IssueCreateInput`);
    const record = one as Record<string, unknown>;
    for (const [k, v] of Object.entries(record))
      if (v !== undefined && !(ISSUE_CREATE_FIELDS as readonly string[]).includes(k))
        throw new Unsupported(`the input field \`IssueCreateInput.${k}\``);
    return createIssue(gql, record);
  });
  return { success: true, lastSyncId: syncId(gql), issues: created };
}

export const BATCH_MUTATIONS: Record<string, Resolver> = {
  issueBatchCreate: (_s, a, g) => issueBatchCreate(g, a),
};
