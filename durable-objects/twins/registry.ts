// The one list of twins. A new twin is a folder beside this file and one line here.
import { githubTwin } from "./github";
import { placeholderTwin } from "./placeholder";
import type { TwinDefinition, TwinId } from "./types";

export const TWINS: Record<TwinId, TwinDefinition> = {
  github: githubTwin as TwinDefinition,
  stripe: placeholderTwin("stripe"),
  slack: placeholderTwin("slack"),
  gmail: placeholderTwin("gmail"),
  linear: placeholderTwin("linear"),
};

export const twinById = (id: TwinId): TwinDefinition => TWINS[id];
