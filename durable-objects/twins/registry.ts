// The one list of twins. A new twin is a folder beside this file and one line here.
import { githubTwin } from "./github";
import { gmailTwin } from "./gmail";
import { linearTwin } from "./linear";
import { slackTwin } from "./slack";
import { stripeTwin } from "./stripe";
import type { TwinDefinition } from "./types";

export const TWINS = {
  github: githubTwin,
  stripe: stripeTwin,
  slack: slackTwin,
  gmail: gmailTwin,
  linear: linearTwin,
};

export type TwinId = keyof typeof TWINS;
export const TWIN_IDS = Object.keys(TWINS) as [TwinId, ...TwinId[]];
export const isTwinId = (value: unknown): value is TwinId => typeof value === "string" && Object.hasOwn(TWINS, value);

/** A twin as the platform sees it: its seed is whatever its own parser produced. */
export const twinById = (id: TwinId): TwinDefinition => TWINS[id];

/** The twin a task or sandbox gets when it names none: the registry's first. */
export const DEFAULT_TWIN: TwinId = TWIN_IDS[0];
