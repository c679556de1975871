// Reaching the running platform the way an agent does: REST with fetch, MCP with the official
// client over Streamable HTTP, unchanged.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Stripe from "stripe";
import { inject } from "vitest";
import { LOCAL_KEY } from "../server";

export const pomeUrl = () => inject("pomeUrl");

export interface Sandbox {
  session_id: string;
  agent_token: string;
  per_twin: Record<string, { api_url: string; mcp_url: string }>;
  provider_credentials: Record<string, { token: string }>;
}

export async function createSandbox(body: Record<string, unknown> = {}): Promise<Sandbox> {
  const res = await fetch(`${pomeUrl()}/v1/sandboxes`, {
    method: "POST",
    headers: { authorization: `Bearer ${LOCAL_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ twins: ["github"], task_source: "IyAuLgo=", ...body }),
  });
  if (res.status !== 201) throw new Error(`create sandbox: ${res.status} ${await res.text()}`);
  return (await res.json()) as Sandbox;
}

/** stripe-node pointed at the running platform with the sandbox's Stripe key; it never retries. */
export function stripeFor(sandbox: Sandbox): Stripe {
  const origin = new URL(pomeUrl());
  return new Stripe(sandbox.provider_credentials.stripe.token, {
    host: origin.hostname,
    port: Number(origin.port),
    protocol: "http",
    maxNetworkRetries: 0,
  });
}

/** An MCP client connected with `Authorization: Bearer <token>` (or none). */
export async function connect(url: string, token: string | undefined): Promise<Client> {
  const client = new Client({ name: "pome-test", version: "1.0.0" });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export interface TapeRow {
  seq: number;
  transport: string;
  method: string;
  path: string;
  operation: string;
  status: number;
  request_headers: Record<string, string>;
  request_body: unknown;
}

export async function tapeOf(sandbox: Sandbox, twin = "github"): Promise<TapeRow[]> {
  const res = await fetch(`${sandbox.per_twin[twin].api_url}/_pome/events`, {
    headers: { authorization: `Bearer ${sandbox.agent_token}` },
  });
  if (res.status !== 200) throw new Error(`events: ${res.status} ${await res.text()}`);
  return (await res.json()) as TapeRow[];
}

/** The text of a tool result's first content item. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  const first = content[0];
  if (first?.type !== "text" || typeof first.text !== "string") throw new Error(`no text content in ${JSON.stringify(result)}`);
  return first.text;
}

export const jsonOf = <T>(result: unknown): T => JSON.parse(textOf(result)) as T;
