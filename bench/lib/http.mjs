// One HTTP helper for the whole bench: node:http over kept-alive loopback connections (lighter
// than fetch, so less client time dilutes the ratios), timing each call from send to last byte.
import http from "node:http";
import { performance } from "node:perf_hooks";

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

/**
 * @typedef {{ status: number, ms: number, text: string, headers: http.IncomingHttpHeaders }} Reply
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: unknown, timeoutMs?: number }} [opts]
 * @returns {Promise<Reply>} never rejects: a transport failure is status 0 with the cause in `text`
 */
export function request(url, opts = {}) {
  const { method = "GET", headers = {}, body, timeoutMs = 120_000 } = opts;
  const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  const allHeaders = { ...headers };
  if (payload !== undefined) {
    allHeaders["content-type"] ??= "application/json";
    allHeaders["content-length"] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(url, { method, headers: allHeaders, agent, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
          text: Buffer.concat(chunks).toString("utf8"),
          headers: res.headers,
        }),
      );
      res.on("error", (err) => resolve({ status: 0, ms: performance.now() - started, text: String(err), headers: {} }));
    });
    req.on("timeout", () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on("error", (err) => resolve({ status: 0, ms: performance.now() - started, text: String(err), headers: {} }));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Parses a reply's JSON body, or undefined when it is not JSON. */
export function jsonOf(reply) {
  try {
    return JSON.parse(reply.text);
  } catch {
    return undefined;
  }
}

/** A short description of an unexpected reply, for a failed figure: `GET /x → 501 (message)`. */
export function describeFailure(label, reply) {
  const body = jsonOf(reply);
  const message = body?.error?.message ?? body?.message ?? reply.text.slice(0, 160);
  return `${label} → ${reply.status || "no answer"}${message ? ` (${String(message).slice(0, 160)})` : ""}`;
}

/** Runs `tasks` with at most `limit` in flight; resolves with their results in order. */
export async function inParallel(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export function closeConnections() {
  agent.destroy();
}
