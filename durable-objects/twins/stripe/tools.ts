import type { TwinTool } from "../types";

export const stripeTools: readonly TwinTool[] = [];
export const stripeUntooled: Readonly<Record<string, string>> = {};
