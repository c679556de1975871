// A sandbox's life, defined once: the Durable Object (the source of truth), the D1 index, quota,
// listing and delete all read the states and which of them are open from here.
export const SANDBOX_STATES = ["provisioning", "ready", "running", "done", "expired", "failed"] as const;
export type SandboxState = (typeof SANDBOX_STATES)[number];

/** States in which a sandbox holds quota and its twins may answer. */
export const OPEN_STATES = ["provisioning", "ready", "running"] as const satisfies readonly SandboxState[];

export const isOpen = (state: string): boolean => (OPEN_STATES as readonly string[]).includes(state);

/** The open states as a SQL list, for statements drizzle does not build (the quota reservation). */
export const OPEN_STATES_SQL = OPEN_STATES.map((s) => `'${s}'`).join(", ");
