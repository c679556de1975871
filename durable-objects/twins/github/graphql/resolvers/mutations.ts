// The root mutation fields, one file per area.
import type { Resolvers } from "../context";
import { commitOnBranchMutations } from "./commit-on-branch";
import { issueMutations } from "./mutations-issues";
import { pullMutations } from "./mutations-pulls";
import { transferMutations } from "./mutations-transfer";
import { threadMutations } from "./review-threads";

export const mutationResolvers: Resolvers = {
  Mutation: { ...issueMutations, ...pullMutations, ...commitOnBranchMutations, ...transferMutations, ...threadMutations },
};
