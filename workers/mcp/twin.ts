// The per-twin MCP server at `/<twin>/s/<ses_id>/mcp`: the twin's operations as typed tools. A tool
// call becomes the REST call it stands for and runs through the Sandbox's own twinCall, so it is
// served by the same dispatch and taped in the same sequence, marked `transport: "mcp"`.
import type { Context } from "hono";
import { TWINS, isTwinId } from "../../durable-objects/twins/registry";
import { type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { OfficialTool, ToolCall, TwinDefinition, TwinRequest, TwinResponse, TwinTool } from "../../durable-objects/twins/types";
import { unknownTwin, credentialOpens, resolveTwinCredential, toResponse } from "../twin-proxy";
import type { AppEnv } from "../app-env";
import { bearerFrom } from "../credentials";
import { ApiError } from "../errors";
import { callLimiter } from "./call-limiter";
import { sandboxStub } from "../stubs";
import { redactBody } from "../../durable-objects/redact";
import { TWIN_BODY_LIMIT_BYTES, bodyTooLarge, tooLarge } from "../twin-limits";
import { twinsOrigin } from "../urls";
import { newMcpServer, readJsonRpc, serveStateless, textResult } from "./serve";

/** The REST request a tool call stands for, as the twin's dispatch takes it. */
export function twinRequestFor(
  tool: TwinTool,
  args: Record<string, unknown>,
  ctx: { authorization: string; baseUrl: string },
): TwinRequest {
  return requestFor(tool.toRequest(args), ctx);
}

/** One API call of a tool as the request the twin's dispatch takes, marked as MCP on the tape. */
export function requestFor(call: ToolCall, ctx: { authorization: string; baseUrl: string }): TwinRequest {
  const hasBody = call.body !== undefined;
  return {
    method: call.method,
    path: call.path,
    query: queryText(call.query),
    // The caller's own credential travels on, so the tape shows an authorized call (redacted).
    headers: {
      authorization: ctx.authorization,
      accept: "application/json",
      "user-agent": "pome-mcp/1.0",
      ...(hasBody ? { "content-type": "application/json; charset=utf-8" } : {}),
    },
    body: hasBody ? JSON.stringify(call.body) : "",
    baseUrl: ctx.baseUrl,
    transport: "mcp",
  };
}

/** The twin's answer as a tool result: its JSON as text; a 4xx/5xx is an error carrying the vendor's body. */
export function toolResultFor(res: TwinResponse) {
  const failed = res.status >= 400;
  // As on REST, a refusal never quotes a secret back.
  if (res.body) return textResult(failed ? redactBody(res.body) : res.body, failed);
  return textResult(failed ? `HTTP ${res.status}` : `Done (HTTP ${res.status}, no content)`, failed);
}

/** The zod form of an official tool's published JSON Schema, built once per isolate: the SDK validates calls with it. */
const officialInputs = new WeakMap<OfficialTool, z.ZodType>();
const officialInputOf = (tool: OfficialTool | undefined) => (tool ? officialInput(tool) : undefined);

function officialInput(tool: OfficialTool): z.ZodType {
  let input = officialInputs.get(tool);
  if (!input) {
    input = z.fromJSONSchema(tool.inputSchema);
    officialInputs.set(tool, input);
  }
  return input;
}

/**
 * Which tools an MCP endpoint serves: `own`, the twin's per-operation tools at `…/mcp`; `official`,
 * the vendor's own MCP server's tool set at `…/mcp/official`, listed exactly as published. They
 * are two servers because their names overlap with different arguments (the vendor's
 * `merge_pull_request` takes `pullNumber`, the twin's `pull_number`), and an agent written for
 * either must find what it was written for.
 */
export type ToolSet = "own" | "official";

const officialTools = (definition: TwinDefinition): readonly OfficialTool[] => definition.officialTools?.tools ?? [];

function twinServer(
  definition: TwinDefinition,
  toolset: ToolSet,
  run: (tool: TwinTool, args: Record<string, unknown>) => Promise<TwinResponse>,
  call: (req: ToolCall) => Promise<TwinResponse>,
) {
  const server = newMcpServer(
    `pome-${definition.id}`,
    `The ${definition.id} digital twin of one Pome sandbox. Every tool is one ${definition.id} API call against this sandbox's world, recorded on its tape.`,
  );
  if (toolset === "official") return officialServer(server, definition, call);
  for (const tool of definition.tools) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.input,
        annotations: annotationsOf(tool),
      },
      async (args: Record<string, unknown>) => {
        try {
          return toolResultFor(await run(tool, args));
        } catch (err) {
          // The Durable Object could not be reached or failed: log the cause, answer in the vendor's shape.
          console.error("twin tool call failed", definition.id, tool.name, err);
          return toolResultFor(definition.errors.internal("The twin failed to answer this call."));
        }
      },
    );
  }
  return server;
}

function officialServer(
  server: ReturnType<typeof newMcpServer>,
  definition: TwinDefinition,
  call: (req: ToolCall) => Promise<TwinResponse>,
) {
  const tools = officialTools(definition);
  for (const tool of tools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: officialInput(tool) }, async (args: unknown) => {
      try {
        // The SDK has validated the arguments against the published schema: an object of its properties.
        const result = await tool.run(isRecord(args) ? args : {}, call);
        return withStructuredContent(tool, textResult(result.text, result.isError));
      } catch (err) {
        console.error("official tool call failed", definition.id, tool.name, err);
        return toolResultFor(definition.errors.internal("The twin failed to answer this call."));
      }
    });
  }
  // Listed exactly as published: the SDK would list a conversion of their zod form.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => tool.published as { name: string; inputSchema: { type: "object" } }),
  }));
  return server;
}

/**
 * A tool published with an `outputSchema` answers its result as `structuredContent` too: the
 * MCP TypeScript SDK's client refuses a successful result of such a tool without it (the
 * specification's "Structured Content"), and keeps the text for clients that read only text.
 */
function withStructuredContent(tool: OfficialTool, result: CallToolResult): CallToolResult {
  if (result.isError || !isRecord(tool.published.outputSchema)) return result;
  const text = result.content[0]?.type === "text" ? result.content[0].text : undefined;
  let structured: unknown;
  try {
    structured = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return result;
  }
  return isRecord(structured) ? { ...result, structuredContent: structured } : result;
}

const annotationsOf = (tool: TwinTool) => ({
  readOnlyHint: tool.readOnly,
  destructiveHint: tool.destructive,
  idempotentHint: tool.readOnly,
  openWorldHint: false,
});

interface ToolRefusal {
  req: TwinRequest;
  response: TwinResponse;
  operation: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The refused call as the tape keeps it: its name and arguments, unless they are over the body
 * limit a REST call has (a tape row stays within the bound kit/response-bounds.ts states).
 */
function refusedCallBody(name: string, args: unknown): string {
  const body = JSON.stringify({ name, arguments: args });
  if (!bodyTooLarge(body)) return body;
  return JSON.stringify({ name, arguments: `[omitted: over the ${TWIN_BODY_LIMIT_BYTES}-byte body limit]` });
}

/**
 * The tool calls in a JSON-RPC body (already parsed, and at most MCP_MAX_BATCH messages) that
 * the MCP SDK will refuse before any tool runs (an unknown tool, arguments that miss its schema).
 * They never reach the twin, so they are taped here: an agent's failed attempts are evidence too.
 */
export function refusedToolCalls(
  messages: unknown,
  definition: TwinDefinition,
  ctx: { authorization: string; baseUrl: string },
  toolset: ToolSet = "own",
): ToolRefusal[] {
  if (messages === undefined) return [];
  const refusals: ToolRefusal[] = [];
  for (const message of Array.isArray(messages) ? messages : [messages]) {
    if (!isRecord(message) || message.method !== "tools/call" || !isRecord(message.params) || typeof message.params.name !== "string")
      continue;
    const name = message.params.name;
    const args = message.params.arguments ?? {};
    const input =
      toolset === "official"
        ? officialInputOf(officialTools(definition).find((t) => t.name === name))
        : definition.tools.find((t) => t.name === name)?.input;
    const problem = input ? invalidArguments(name, input, args) : `Tool ${name} not found`;
    if (problem === undefined) continue;
    refusals.push({
      req: {
        method: "POST",
        path: "/mcp",
        query: "",
        headers: { authorization: ctx.authorization, "content-type": "application/json" },
        body: refusedCallBody(name, args),
        baseUrl: ctx.baseUrl,
        transport: "mcp",
      },
      response: {
        status: input ? 422 : 404,
        headers: { "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify({ message: problem }),
      },
      operation: input ? `mcp.${name}` : "mcp.unknown_tool",
    });
  }
  return refusals;
}

function invalidArguments(name: string, input: z.ZodType, args: unknown): string | undefined {
  const result = input.safeParse(args);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  return `Invalid arguments for tool ${name}: ${issue.path.join(".") || "(arguments)"} — ${issue.message}`;
}

export async function twinMcpHandler(c: Context<AppEnv>): Promise<Response> {
  const twin = c.req.param("twin");
  const sessionId = c.req.param("sid") ?? "";
  if (!isTwinId(twin)) throw unknownTwin(twin);
  const definition = TWINS[twin];
  const toolset: ToolSet = c.req.path.endsWith("/mcp/official") ? "official" : "own";
  if (toolset === "official" && !officialTools(definition).length)
    throw new ApiError("not_found", "This twin serves no vendor MCP tool set: its own tools are at …/mcp", { twin });
  const authorization = c.req.header("authorization") ?? "";
  const who = await resolveTwinCredential(c.get("settings").tokenSecrets, bearerFrom(authorization));
  if (!credentialOpens(who, twin, sessionId)) {
    // MCP's authorization rule is HTTP 401 with a challenge, whatever status the vendor's own API
    // uses for it (some answer 200 with an error field); the body keeps the vendor's wording.
    const vendor = toResponse(definition.errors.unauthorized("Bad credentials"));
    const headers = new Headers(vendor.headers);
    headers.set("www-authenticate", 'Bearer realm="pome"');
    return new Response(vendor.body, { status: 401, headers });
  }
  // Bounded before anything is taped: a batch the SDK refuses whole leaves no row, and at most
  // MCP_MAX_BATCH calls of one request (taped refusals and tool calls together) reach the sandbox.
  const body = await readJsonRpc(c);
  if ("refusal" in body) return body.refusal;
  const stub = sandboxStub(c.env, sessionId);
  const baseUrl = `${twinsOrigin(c)}/${twin}/s/${sessionId}`;
  for (const refusal of refusedToolCalls(body.messages, definition, { authorization, baseUrl }, toolset)) {
    await stub.tapeRefusal(twin, refusal.req, refusal.response, refusal.operation);
  }
  // The same body limit as REST: refused in the vendor's shape, nothing written. A batch's calls
  // reach the sandbox a few at a time (call-limiter.ts), so a neighbour is not queued
  // behind all of them.
  const inTurn = callLimiter();
  const send = (req: TwinRequest) =>
    bodyTooLarge(req.body) ? Promise.resolve(tooLarge(definition)) : inTurn(() => stub.twinCall(twin, req));
  const server = twinServer(
    definition,
    toolset,
    (tool, args) => send(twinRequestFor(tool, args, { authorization, baseUrl })),
    (call) => send(requestFor(call, { authorization, baseUrl })),
  );
  return serveStateless(body.request, server, body.messages);
}

/** A tool call's query as text: a list repeats its parameter, once per value. */
export function queryText(query: ToolCall["query"] = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    for (const one of typeof value === "string" ? [value] : value) params.append(name, one);
  return params.toString();
}
