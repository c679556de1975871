// Reading an MCP tool's validated arguments, shared by the two official Gmail tool sets
// (hosted-tools.ts and official-tools.ts): each helper takes what the schema allowed and
// answers a plain value, never throwing on a shape it did not expect.

export type Json = Record<string, unknown>;

/** The API root of the mailbox the tools act on, as Gmail's clients address it. */
export const MAILBOX = "/gmail/v1/users/me";

export const str = (v: unknown) => (typeof v === "string" ? v : "");
export const isJson = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
export const jsons = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isJson) : []);
