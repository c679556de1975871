import type { CheckDefinition } from "../types";
import type { StripeSeed } from "./seed";

export const stripeChecks: readonly CheckDefinition<StripeSeed>[] = [];
