// GitHub's binding of the kit's declared routes (kit/route.ts): how GitHub reads a request and how
// it words a refusal, once for every route. A body is JSON whatever its content type, and an empty
// one reads as `{}` (Octokit sends an empty body for a parameterless PUT). A wrong JSON type is
// "Invalid request.\n\nFor 'properties/<key>', <json> is not <a string>."; a missing required field
// is `"<key>" wasn't supplied.`; a value outside its set or range is 422 "Validation Failed"
// naming the resource and field; JSON that is not an object is 400 "Problems parsing JSON"; a path
// value of the wrong shape (`/issues/abc`) is GitHub's 404. These are the words the readers of
// `input.ts` used before the routes were declared, so no answer changed.
import { z } from "zod";
import { type InputProblem, type ShapedRouteSpec, routeKit, valueAt } from "../kit/route";
import type { Route, TwinContext, TwinResponse } from "../types";
import { conditional } from "./conditional";
import { metered, rateClassOf } from "./rate-limit";
import { ghError, ghJson, ghNotFound, ghValidationFailed } from "./errors";
import { IssueMoved } from "./store/issues";
import { jsonValue } from "./input";
import { requireRepo, requireWritableRepo } from "./repos";

type Shape = z.ZodRawShape;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;

/** What a GitHub handler receives: path parameters, query and body, parsed and typed. */
export interface GithubInput<P extends Shape, Q extends Shape, B extends Shape> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

export interface GithubRouteSpec<P extends Shape, Q extends Shape, B extends Shape> extends ShapedRouteSpec<P, Q, B> {
  /** The resource a "Validation Failed" refusal names (`Issue`, `Label`…). */
  resource?: string;
  /**
   * Body fields GitHub refuses as a "Validation Failed" `missing_field` when absent, null or empty,
   * rather than as an invalid request: an issue's `title`, a comment's `body`.
   */
  missingField?: readonly string[];
  /** A bare JSON array body is read as this field (`POST …/labels` takes `["bug"]` as well as `{labels}`). */
  bareArrayAs?: string;
  /**
   * A write under /repos/{owner}/{repo}/ that an archived repository still takes (forking,
   * transferring, managing collaborators). Every other one is refused with GitHub's 403
   * "Repository was archived so is read-only."
   */
  writableWhenArchived?: boolean;
  handler(ctx: TwinContext, input: GithubInput<P, Q, B>): TwinResponse;
}

const describeJson = (value: unknown) => (value === null ? "nil" : (JSON.stringify(value) ?? String(value)));

const invalidRequest = (detail: string) => ghError(422, `Invalid request.\n\n${detail}`);

/** zod's expected type, in the words GitHub's validator uses. */
function typeWords(expected: string | undefined): string {
  switch (expected) {
    case "string":
      return "a string";
    case "number":
    case "int":
      return "an integer";
    case "boolean":
      return "a boolean";
    case "array":
      return "an array";
    case "object":
      return "an object";
    default:
      return "a valid value";
  }
}

/** What a list whose item is wrong "is not", as the readers of input.ts wrote it. */
const LIST_WORDS: Readonly<Record<string, string>> = { labels: "an array of label names" };

/** How GitHub's rules apply to one route: the resource it names and its `missing_field` fields. */
export interface RefusalContext {
  resource: string;
  missingField: readonly string[];
}

/** GitHub's answer to the first problem a declaration found. Pure, so it is tested without HTTP. */
export function githubRefusal(problem: InputProblem, route: RefusalContext): TwinResponse {
  const keys = problem.path.map(String);
  if (problem.place === "path") return ghNotFound();
  if (problem.place === "query") {
    // A required query value left out or empty is "missing" (`GET /search/issues` without `q`).
    const field = keys.join("/");
    if (problem.received === undefined || problem.received === "")
      return ghValidationFailed([{ resource: route.resource, field, code: "missing" }]);
    return ghValidationFailed([{ resource: route.resource, field, code: "invalid", value: problem.received }]);
  }
  // The body as a whole is not an object: the same answer as JSON that does not parse.
  if (keys.length === 0) return ghError(400, "Problems parsing JSON");
  const field = keys[0] as string;
  const empty = problem.received === undefined || problem.received === null || problem.received === "";
  if (keys.length === 1 && route.missingField.includes(field) && empty)
    return ghValidationFailed([{ resource: route.resource, code: "missing_field", field }]);
  // Absent, whatever zod calls it (an enum reports an absent value as `invalid_value`).
  if (problem.received === undefined) return invalidRequest(`"${keys.at(-1)}" wasn't supplied.`);
  const last = problem.path.at(-1);
  if (typeof last === "number") {
    // A wrong item: GitHub names the whole list, as `optStringArray` and `labelNames` did.
    const parent = keys.slice(0, -1);
    const list = valueAt(problem.input, problem.path.slice(0, -1));
    return invalidRequest(`For 'properties/${parent.join("/")}', ${describeJson(list)} is not ${LIST_WORDS[field] ?? "an array"}.`);
  }
  if (problem.code === "invalid_type" || problem.code === "invalid_union")
    return invalidRequest(`For 'properties/${keys.join("/")}', ${describeJson(problem.received)} is not ${typeWords(problem.expected)}.`);
  return ghValidationFailed([{ resource: route.resource, field: keys.join("/"), code: "invalid", value: problem.received }]);
}

/** The body as GitHub reads it: JSON whatever the content type, empty as `{}`. */
function githubBody(ctx: TwinContext, bareArrayAs: string | undefined): unknown {
  const value = jsonValue(ctx);
  if (value === undefined) return {};
  if (bareArrayAs && Array.isArray(value)) return { [bareArrayAs]: value };
  return value;
}

/** One GitHub route, declared: inputs read and refused as GitHub does, every answer given its ETag. */
export function route<
  P extends Shape = Record<never, never>,
  Q extends Shape = Record<never, never>,
  B extends Shape = Record<never, never>,
>(spec: GithubRouteSpec<P, Q, B>): Route {
  const refusal: RefusalContext = { resource: spec.resource ?? "Resource", missingField: spec.missingField ?? [] };
  const body = spec.body ? z.object(spec.body) : undefined;
  const built = routeKit({
    refuse: (problem) => githubRefusal(problem, refusal),
    unparsable: () => ghError(400, "Problems parsing JSON"),
    bodyEncoding: "json",
    readBody: (ctx) => githubBody(ctx, spec.bareArrayAs),
  })({
    method: spec.method,
    pattern: spec.pattern,
    operation: spec.operation,
    summary: spec.summary,
    params: spec.params,
    query: spec.query,
    body,
    tool: spec.tool,
    handler: (ctx, input) =>
      // The body was parsed by `z.object(spec.body)`, so it has that shape; a route without one reads `{}`.
      spec.handler(ctx, { params: input.params, query: input.query, body: (input.body ?? {}) as Out<B> }),
  });
  // GitHub resolves the repository a path names before it reads the request: a missing one is
  // its 404 whatever the body holds, so the declaration's refusal never comes first.
  const namesRepo = spec.params !== undefined && "owner" in spec.params && "repo" in spec.params;
  // An archived repository is read-only: a write beneath it is refused before the request is read.
  const guardsArchive = namesRepo && spec.method !== "GET" && spec.pattern.startsWith("/repos/:owner/:repo/") && !spec.writableWhenArchived;
  // Every answer gets its ETag (and a GET its 304) here, once for all routes.
  // Each call is counted in its rate-limit bucket (rate-limit.ts), refused or not.
  const rate = rateClassOf(spec.pattern);
  return {
    ...built,
    handler: (ctx) =>
      metered(ctx, rate, () => {
        if (guardsArchive) requireWritableRepo(ctx);
        else if (namesRepo) requireRepo(ctx);
        try {
          return conditional(ctx, built.handler(ctx));
        } catch (err) {
          if (err instanceof IssueMoved) return movedPermanently(ctx, err.to);
          throw err;
        }
      }),
  };
}

/** GitHub's documentation of the redirects its API answers (the 301's documentation_url). */
const REDIRECTS_DOC = "https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects";

/**
 * GitHub's 301 for a transferred issue's old number: the same path (and query) below the issue
 * where it is now, in the `/repositories/{id}` form GitHub's redirects use, in `Location` and in
 * the body's `url`. Clients that follow redirects (fetch, and so Octokit) land on the issue.
 */
function movedPermanently(ctx: TwinContext, to: { repo_id: number; number: number }): TwinResponse {
  const at = /^(.*?)\/(?:repos\/[^/]+\/[^/]+|repositories\/\d+)\/issues\/[^/]+(.*)$/.exec(ctx.req.path);
  const path = `${at?.[1] ?? ""}/repositories/${to.repo_id}/issues/${to.number}${at?.[2] ?? ""}`;
  const url = `${ctx.req.baseUrl}${path}${ctx.req.query ? `?${ctx.req.query.replace(/^\?/, "")}` : ""}`;
  return ghJson(301, { message: "Moved Permanently", url, documentation_url: REDIRECTS_DOC }, { location: url });
}

// The arguments GitHub's REST names use, described once for the handler, the tool and OpenAPI.

export const owner = z.string().min(1).describe('Login of the account that owns the repository, e.g. "acme"');
export const repo = z.string().min(1).describe('Repository name without its owner, e.g. "api"');
export const repoParams = { owner, repo };
export const issueNumber = z.number().int().positive().describe("The issue's number, as shown after # (pull requests share the numbering)");
export const pullNumber = z.number().int().positive().describe("The pull request's number, as shown after #");
export const commentId = z.number().int().positive().describe("The comment's id (from list_comments)");

/**
 * A query value GitHub ignores when it is malformed (`per_page=abc`, `state=nonsense`): declared
 * for the tool and OpenAPI, read as absent when it does not fit, never refused.
 */
export const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const pageQuery = {
  per_page: lenient(z.number().int().positive()).describe("Results per page, 1 to 100 (default 30; more reads as 100)"),
  page: lenient(z.number().int().positive()).describe("Page of results, starting at 1"),
};
export const direction = lenient(z.enum(["asc", "desc"])).describe("Sort direction");
export const since = z.string().optional().describe("Only items updated at or after this ISO 8601 time, e.g. 2026-01-31T00:00:00Z");

/** Label lists take names or `{ name }` objects, as GitHub does. */
export const labelList = (what: string, min = 0) =>
  z
    .array(z.union([z.string(), z.object({ name: z.string() })]))
    .min(min)
    .describe(what);

/** The names of a label list as declared by `labelList`. */
export const labelNamesOf = (labels: readonly (string | { name: string })[]): string[] =>
  labels.map((l) => (typeof l === "string" ? l : l.name));

/**
 * A git identity in a body (`author`, `committer`, `tagger`); `gitIdentity` (input.ts) then checks
 * its date and fills in `now`.
 */
export const gitIdentityField = (who: string) =>
  z
    .object({ name: z.string(), email: z.string(), date: z.string().optional() })
    .nullable()
    .optional()
    .describe(`The ${who}: { name, email, date? } with an ISO 8601 date`);
