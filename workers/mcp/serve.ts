// Serving MCP over Streamable HTTP, stateless: every POST gets a fresh server and transport, so
// any isolate can answer any request and nothing lives between requests (STYLE.md point 12).
//
// The body is read here once, before anything runs or is taped, within the MCP SDK's own bounds
// (@modelcontextprotocol/sdk server/requestBody.js): a body over 4 MiB is answered 413 and a
// batch of more than 100 messages is refused whole, 400, both in the SDK's own JSON-RPC words.
// What passes is handed to the transport already parsed, so it is never read twice.
import type { Context } from "hono";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { bodyWithin } from "../body";

export const SERVER_VERSION = "1.0.0";

// The SDK validates elicitation answers with a JSON Schema validator; its default (Ajv) compiles
// code at run time, which Workers forbid, and building it per request costs time. These servers
// never elicit, so the validator only has to exist.
const noElicitation: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "This server does not elicit input" }),
};

/** A server that advertises tools even when it has none (a twin without tools lists nothing). */
export function newMcpServer(name: string, instructions: string): McpServer {
  return new McpServer(
    { name, version: SERVER_VERSION },
    { capabilities: { tools: {} }, instructions, jsonSchemaValidator: noElicitation },
  );
}

/** The SDK's bounds (DEFAULT_MAX_REQUEST_BODY_SIZE, MAX_BATCH_SIZE in server/requestBody.js). */
export const MCP_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const MCP_MAX_BATCH = 100;

const jsonRpcError = (status: number, code: number, message: string): Response =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });

/**
 * A POST's JSON-RPC body, read within the SDK's bounds: `refusal` for what the SDK would refuse
 * whole (too large, too many messages), else the request to serve and its parsed messages
 * (undefined when the text is not JSON: the SDK then answers it as it answers any bad body).
 */
export type JsonRpcBody = { refusal: Response } | { request: Request; messages: unknown };

export async function readJsonRpc(c: Context): Promise<JsonRpcBody> {
  const request = c.req.raw;
  if (request.method !== "POST") return { request, messages: undefined };
  if (!(await bodyWithin(c, MCP_MAX_BODY_BYTES)))
    return { refusal: jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${MCP_MAX_BODY_BYTES} bytes`) };
  const text = await c.req.text();
  let messages: unknown;
  try {
    messages = JSON.parse(text);
  } catch {
    // The SDK reads this body itself and answers with its own status (406, 415 or its parse error).
    return { request: new Request(request.url, { method: "POST", headers: request.headers, body: text }), messages: undefined };
  }
  if (Array.isArray(messages) && messages.length > MCP_MAX_BATCH)
    return { refusal: jsonRpcError(400, -32600, `Invalid Request: Batch must not exceed ${MCP_MAX_BATCH} messages`) };
  return { request, messages };
}

/**
 * Answers one HTTP request. Only POST carries JSON-RPC here: a stateless server has no stream to
 * offer on GET and no session to end on DELETE, and 405 is what MCP clients expect for that.
 * `messages` is the body readJsonRpc parsed (undefined: the transport reads the request's own).
 */
export async function serveStateless(request: Request, server: McpServer, messages?: unknown): Promise<Response> {
  if (request.method !== "POST") {
    return new Response(
      JSON.stringify({
        jsonrpc: "2.0",
        error: { code: -32000, message: "Method not allowed: this MCP server is stateless; POST JSON-RPC to it" },
        id: null,
      }),
      { status: 405, headers: { allow: "POST", "content-type": "application/json" } },
    );
  }
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    // In JSON-response mode the transport resolves once every answer is in the body.
    return await transport.handleRequest(request, messages === undefined ? undefined : { parsedBody: messages });
  } finally {
    await server.close();
  }
}

export const textResult = (text: string, isError = false): CallToolResult =>
  isError ? { content: [{ type: "text", text }], isError } : { content: [{ type: "text", text }] };
