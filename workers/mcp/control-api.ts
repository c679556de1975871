// The control MCP calls the platform's own /v1 routes in-process, with the caller's team key, so
// each behaviour (validation, quota, grading, error envelopes) has exactly one implementation.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError, errorBody } from "../errors";
import { textResult } from "./serve";

export interface ApiAnswer {
  status: number;
  text: string;
  /** The parsed body when it is JSON; undefined otherwise. */
  json: unknown;
}

/** A /v1 call that did not succeed; the tool answers with the control plane's error envelope. */
export class ApiFailure extends Error {
  constructor(readonly answer: ApiAnswer) {
    super(`HTTP ${answer.status}: ${answer.text}`);
  }
}

export interface V1 {
  /** Any answer, success or not. */
  raw(method: string, path: string, body?: unknown): Promise<ApiAnswer>;
  /** A 2xx answer's JSON; anything else throws ApiFailure. */
  json<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** A 2xx answer's text (report.md); anything else throws ApiFailure. */
  text(method: string, path: string): Promise<string>;
}

export type Fetcher = (request: Request) => Promise<Response>;

export function v1Client(fetcher: Fetcher, origin: string, authorization: string): V1 {
  const raw = async (method: string, path: string, body?: unknown): Promise<ApiAnswer> => {
    const headers = new Headers({ authorization, accept: "application/json" });
    if (body !== undefined) headers.set("content-type", "application/json");
    const res = await fetcher(
      new Request(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    const text = await res.text();
    let json: unknown;
    if ((res.headers.get("content-type") ?? "").includes("json") && text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return { status: res.status, text, json };
  };
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await raw(method, path, body);
    if (answer.status < 200 || answer.status > 299) throw new ApiFailure(answer);
    return answer;
  };
  return {
    raw,
    json: async <T>(method: string, path: string, body?: unknown) => (await ok(method, path, body)).json as T,
    text: async (method: string, path: string) => (await ok(method, path)).text,
  };
}

/** `?a=1&b=2` from the defined values; empty when there are none. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * Runs a tool body. A failed /v1 call becomes an error result carrying its envelope as is; an
 * expected refusal thrown by a plain function (ApiError) gets the same envelope the route would
 * send; anything else is logged and answered as an internal error, never with its cause.
 */
export async function guarded(requestId: string, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof ApiFailure) return textResult(err.answer.text || `HTTP ${err.answer.status}`, true);
    if (err instanceof ApiError) return textResult(JSON.stringify(errorBody(err, requestId)), true);
    // A bug: its cause goes to the log, the caller gets the envelope with the request id.
    console.error("control tool failed", requestId, err);
    const internal = new ApiError("internal_error", "Something went wrong on our side; the request id identifies it");
    return textResult(JSON.stringify(errorBody(internal, requestId)), true);
  }
}

export const jsonResult = (value: unknown): CallToolResult => textResult(JSON.stringify(value, null, 2));
