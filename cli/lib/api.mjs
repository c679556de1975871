// The control-plane client: JSON in and out, the team key as bearer, and every failure turned
// into a CliError that names the call, the status, the server's message and its request id.
import { CliError, EXIT } from "./errors.mjs";

export class ApiResponseError extends CliError {
  constructor(method, path, status, body, keySource = "POME_API_KEY") {
    const error = body && typeof body === "object" && body.error && typeof body.error === "object" ? body.error : undefined;
    const type = error?.type ?? `http_${status}`;
    const message = error?.message ?? (typeof body === "string" && body.trim() ? body.trim().slice(0, 300) : "no error message");
    const hint = status === 401 || status === 403 ? ` Check ${keyPlace(keySource)} (or run \`pome doctor\`).` : "";
    super(
      `${method} ${path} answered ${status} ${type}: ${message}${error?.request_id ? ` (request ${error.request_id})` : ""}.${hint}`,
      EXIT.API,
      {
        status,
        type,
        details: error?.details ?? {},
        request_id: error?.request_id ?? null,
      },
    );
    this.status = status;
    this.type = type;
    /** The server's own sentence, without the call and status around it. */
    this.serverMessage = message;
    this.apiDetails = error?.details ?? {};
  }
}

/** Where the refused key came from, so the hint names what to change. */
export function keyPlace(source) {
  if (source === "--api-key") return "the key given with --api-key";
  if (source === "default") return "the key: none was configured, so the local default was tried; set POME_API_KEY";
  if (source === "POME_API_KEY") return "POME_API_KEY";
  return `api_key in ${source}`;
}

export class PomeApi {
  /** @param {{ apiUrl: string, apiKey: string, sources?: { apiKey?: string } }} config */
  constructor(config, { timeoutMs = 30_000 } = {}) {
    this.url = config.apiUrl;
    this.key = config.apiKey;
    this.keySource = config.sources?.apiKey ?? "POME_API_KEY";
    this.timeoutMs = timeoutMs;
  }

  /**
   * @param {string} method
   * @param {string} path starting with /v1
   * @param {{ body?: unknown, query?: Record<string, string | number | undefined>, text?: boolean, timeoutMs?: number, headers?: Record<string,string> }} [opts]
   */
  async request(method, path, opts = {}) {
    const url = new URL(`${this.url}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    const headers = {
      authorization: `Bearer ${this.key}`,
      accept: opts.text ? "text/markdown, text/plain, */*" : "application/json",
      ...opts.headers,
    };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    let res;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? this.timeoutMs),
      });
    } catch (err) {
      throw unreachable(this.url, err);
    }
    const raw = await res.text();
    let body = raw;
    if (!opts.text || !res.ok) {
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        if (res.ok)
          throw new CliError(`${method} ${path} answered ${res.status} with a body that is not JSON; is ${this.url} a Pome API?`, EXIT.API);
      }
    }
    if (!res.ok) throw new ApiResponseError(method, url.pathname + url.search, res.status, body, this.keySource);
    return { status: res.status, headers: res.headers, body };
  }

  async get(path, query) {
    return (await this.request("GET", path, { query })).body;
  }

  async post(path, body, opts = {}) {
    return (await this.request("POST", path, { ...opts, body })).body;
  }

  async text(path) {
    return (await this.request("GET", path, { text: true })).body;
  }

  /**
   * Closes a sandbox. An open one holds an ungraded run and is refused with a discard token; with
   * `discard` the call is repeated with that token, otherwise the refusal is thrown.
   */
  async deleteSandbox(id, { discard = false } = {}) {
    const path = `/v1/sandboxes/${encodeURIComponent(id)}`;
    try {
      return (await this.request("DELETE", path)).body;
    } catch (err) {
      const token = err instanceof ApiResponseError ? err.apiDetails?.discard_token : undefined;
      if (!token || !discard) throw err;
      return (await this.request("DELETE", path, { query: { confirm_discard: token } })).body;
    }
  }
}

export function unreachable(url, err) {
  const cause = err?.cause?.code ?? err?.code ?? err?.name ?? "error";
  const why = err?.name === "TimeoutError" ? "it did not answer in time" : `${cause}${err?.cause?.message ? `: ${err.cause.message}` : ""}`;
  return new CliError(
    `Cannot reach the Pome API at ${url} (${why}). Is the server running (\`npm start\`)? Set POME_API_URL to use another one.`,
    EXIT.API,
    {
      api_url: url,
      cause,
    },
  );
}
