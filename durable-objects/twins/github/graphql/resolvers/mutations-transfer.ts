// transferIssue: GitHub's only way to move an issue (REST has none). The store decides what
// travels with it (store/issue-transfer.ts); here the ids are resolved and GitHub's GraphQL
// refusals worded.
import { transferIssue } from "../../store/issue-transfer";
import type { Gql } from "../context";
import { issueSource } from "../sources";
import { type Mutation, done } from "./payload";
import { invalid, issueTarget, repositoryTarget } from "./targets";

interface TransferIssue extends Mutation {
  issueId: string;
  repositoryId: string;
  createLabelsIfMissing?: boolean | null;
}

export const transferMutations = {
  transferIssue: (_s: unknown, { input }: { input: TransferIssue }, gql: Gql) => {
    const source = issueTarget(gql, input.issueId, ["Issue"]);
    const to = repositoryTarget(gql, input.repositoryId);
    if (source.repo.archived) throw invalid("Repository was archived so is read-only.");
    if (source.repo.owner.toLowerCase() !== to.owner.toLowerCase())
      throw invalid("Issues can only be transferred to a repository with the same owner.");
    const row = transferIssue(gql.store(), source.repo, source.row, to, input.createLabelsIfMissing === true);
    return done(input, { issue: issueSource(to, row) });
  },
};
