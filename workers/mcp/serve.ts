// Serving MCP over Streamable HTTP, stateless: every POST gets a fresh server and transport, so
// any isolate can answer any request and nothing lives between requests (STYLE.md point 12).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

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

/**
 * Answers one HTTP request. Only POST carries JSON-RPC here: a stateless server has no stream to
 * offer on GET and no session to end on DELETE, and 405 is what MCP clients expect for that.
 */
export async function serveStateless(request: Request, server: McpServer): Promise<Response> {
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
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

export const textResult = (text: string, isError = false): CallToolResult =>
  isError ? { content: [{ type: "text", text }], isError } : { content: [{ type: "text", text }] };
