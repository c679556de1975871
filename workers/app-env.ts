import type { Settings } from "./settings";

export interface Team {
  id: string;
  slug: string;
  planTier: string;
  sessionsQuota: number;
}

export interface Caller {
  team: Team;
  user: { id: string; email: string };
  apiKey: { id: string; name: string };
}

/** Hono's typed context for the router: bindings, and what middleware puts on the request. */
export interface AppEnv {
  Bindings: Env;
  Variables: { requestId: string; settings: Settings; caller: Caller };
}
