import type { CheckDefinition } from "../types";
import type { LinearSeed } from "./seed";
import { noUnsupportedEndpoint } from "../kit/checks";

export const linearChecks: readonly CheckDefinition<LinearSeed>[] = [noUnsupportedEndpoint<LinearSeed>("linear", "Linear")];
