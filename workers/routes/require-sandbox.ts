// The sandbox a `/v1/sandboxes/:id/…` route names, as its caller's team sees it: one lookup for
// every route under that path (the sandbox's own routes and its finalize and evaluation).
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import type { SandboxRow } from "../db/schema";
import { notFound } from "../errors";
import { findSandbox } from "../sandbox-index";

/** The `:id` sandbox of the caller's team, or the 404 it gets when there is none. */
export async function requireSandbox(c: Context<AppEnv>): Promise<SandboxRow> {
  const row = await findSandbox(c.env, c.get("caller").team.id, c.req.param("id") ?? "");
  // Another team's sandbox is indistinguishable from one that does not exist.
  if (!row) throw notFound("Sandbox");
  return row;
}
