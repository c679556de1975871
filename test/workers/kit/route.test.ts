// A route declared once (durable-objects/twins/kit/route.ts): the handler gets typed input, a
// refusal is the vendor's own answer naming the field, and the route's MCP tool and OpenAPI entry
// come from the same declaration. Plain functions, no HTTP.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonResponse, TwinError } from "../../../durable-objects/twins/kit/response";
import { coerce, type InputProblem, openapiOperation, pathOf, routeKit, toolsOf } from "../../../durable-objects/twins/kit/route";
import type { TwinContext, TwinResponse } from "../../../durable-objects/twins/types";

const refusals: InputProblem[] = [];
const rules = {
  refuse(problem: InputProblem): TwinResponse {
    refusals.push(problem);
    return jsonResponse(400, { error: { field: [problem.place, ...problem.path.map(String)].join("."), code: problem.code } });
  },
  unparsable: () => jsonResponse(400, { error: "not json" }),
};

const seen: unknown[] = [];
const jsonRoute = routeKit({ ...rules, bodyEncoding: "json" })({
  method: "POST",
  pattern: "/repos/:owner/:repo/issues/:number/labels",
  operation: "issues.addLabels",
  summary: "Add labels to an issue",
  params: { owner: z.string(), repo: z.string(), number: z.number().int().describe("The issue's number") },
  query: { dry_run: z.boolean().optional(), tags: z.array(z.string()).optional() },
  body: z.object({ labels: z.array(z.string()).min(1).describe("Label names") }),
  tool: { name: "add_labels", description: "Adds labels to an issue." },
  handler(_ctx, input) {
    seen.push(input);
    // Typed: these lines only compile if the input has the declared types.
    const count: number = input.params.number + input.body.labels.length;
    return jsonResponse(200, { count, dry: input.query.dry_run ?? false });
  },
});

const formRoute = routeKit({ ...rules, bodyEncoding: "form", emptyIsAbsent: true })({
  method: "POST",
  pattern: "/v1/customers/:id",
  operation: "customers.update",
  summary: "Update a customer",
  params: { id: z.string() },
  body: z.object({
    balance: z.number().int().optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    tax_exempt: z.boolean().optional(),
  }),
  tool: { name: "update_customer", description: "Updates a customer." },
  handler: (_ctx, input) => jsonResponse(200, input.body),
});

function ctxOf(req: { params: Record<string, string>; query?: string; body?: string; type?: string }): TwinContext {
  return {
    params: req.params,
    query: new URLSearchParams(req.query ?? ""),
    req: {
      method: "POST",
      path: "/",
      query: req.query ?? "",
      headers: req.type ? { "content-type": req.type } : {},
      body: req.body ?? "",
      baseUrl: "http://twin.test",
      transport: "rest",
    },
  } as unknown as TwinContext;
}

function answer(run: () => TwinResponse): { status: number; body: unknown } {
  try {
    const res = run();
    return { status: res.status, body: JSON.parse(res.body) };
  } catch (err) {
    if (!(err instanceof TwinError)) throw err;
    return { status: err.response.status, body: JSON.parse(err.response.body) };
  }
}

describe("a declared route reads its inputs into the declared types", () => {
  it("coerces path and query strings and hands the handler typed input", () => {
    const ctx = ctxOf({
      params: { owner: "acme", repo: "api", number: "7" },
      query: "dry_run=true&tags=a&tags[]=b",
      body: '{"labels":["bug"]}',
      type: "application/json",
    });
    expect(answer(() => jsonRoute.handler(ctx))).toEqual({ status: 200, body: { count: 8, dry: true } });
    expect(seen.at(-1)).toEqual({
      params: { owner: "acme", repo: "api", number: 7 },
      query: { dry_run: true, tags: ["a", "b"] },
      body: { labels: ["bug"] },
    });
  });

  it("reads a form body with nested keys and coerces its values; empty is absent where the vendor says so", () => {
    // An undeclared key is dropped by a plain object; a vendor that refuses one declares z.strictObject.
    const ctx = ctxOf({ params: { id: "cus_1" }, body: "balance=-250&metadata[plan]=pro&tax_exempt=&x=1" });
    expect(answer(() => formRoute.handler(ctx))).toEqual({ status: 200, body: { balance: -250, metadata: { plan: "pro" } } });
  });

  it("coerces only what plainly is the declared type", () => {
    const schema = z.object({ n: z.number(), b: z.boolean(), s: z.string(), list: z.array(z.number()) });
    expect(coerce(schema, { n: "12", b: "false", s: "12", list: ["1", "x"] })).toEqual({ n: 12, b: false, s: "12", list: [1, "x"] });
    expect(coerce(schema, { n: "twelve" })).toEqual({ n: "twelve" });
    expect(coerce(schema, { b: "True" })).toEqual({ b: "True" });
    expect(coerce(schema, { b: "True" }, { anyCaseBooleans: true })).toEqual({ b: true });
    expect(coerce(schema, { b: "FALSE" }, { anyCaseBooleans: true })).toEqual({ b: false });
    expect(coerce(schema, { b: "yes" }, { anyCaseBooleans: true })).toEqual({ b: "yes" });
  });

  it("takes keys named like Object's own (toString, __proto__) as a caller's fields, not the shape's", () => {
    const schema = z.object({ token: z.string().optional() });
    const form = Object.fromEntries(new URLSearchParams("toString=&constructor=x&__proto__=y&token=t"));
    const coerced = coerce(schema, form) as Record<string, unknown>;
    expect(Object.keys(coerced).sort()).toEqual(["__proto__", "constructor", "toString", "token"]);
    expect(Object.getPrototypeOf(coerced)).toBe(Object.prototype);
    expect(z.parse(schema, coerced)).toEqual({ token: "t" });
  });
});

describe("what the declaration refuses is the vendor's answer, naming the field, before the handler runs", () => {
  it("names the place and the path of the first problem", () => {
    const before = seen.length;
    const wrongNumber = ctxOf({ params: { owner: "a", repo: "b", number: "seven" }, body: '{"labels":["x"]}', type: "application/json" });
    expect(answer(() => jsonRoute.handler(wrongNumber))).toEqual({
      status: 400,
      body: { error: { field: "path.number", code: "invalid_type" } },
    });
    const emptyList = ctxOf({ params: { owner: "a", repo: "b", number: "1" }, body: '{"labels":[]}', type: "application/json" });
    expect(answer(() => jsonRoute.handler(emptyList))).toEqual({
      status: 400,
      body: { error: { field: "body.labels", code: "too_small" } },
    });
    const wrongItem = ctxOf({ params: { owner: "a", repo: "b", number: "1" }, body: '{"labels":[1]}', type: "application/json" });
    expect(answer(() => jsonRoute.handler(wrongItem))).toEqual({
      status: 400,
      body: { error: { field: "body.labels.0", code: "invalid_type" } },
    });
    expect(refusals.at(-1)).toMatchObject({ place: "body", received: 1, expected: "string" });
    expect(seen.length).toBe(before);
  });

  it("answers the vendor's unparsable-body refusal for JSON that is not JSON", () => {
    const ctx = ctxOf({ params: { owner: "a", repo: "b", number: "1" }, body: "{labels", type: "application/json" });
    expect(answer(() => jsonRoute.handler(ctx))).toEqual({ status: 400, body: { error: "not json" } });
  });
});

describe("the route's MCP tool comes from the same declaration", () => {
  const [addLabels, updateCustomer] = toolsOf([jsonRoute, formRoute]);

  it("takes path, query and body fields as its arguments, strictly", () => {
    expect(addLabels.name).toBe("add_labels");
    expect(addLabels.readOnly).toBe(false);
    expect(Object.keys(addLabels.input.shape).sort()).toEqual(["dry_run", "labels", "number", "owner", "repo", "tags"]);
    expect(() => addLabels.toRequest({ owner: "a", repo: "b", number: 1, labels: ["x"], labelz: [] })).toThrow();
  });

  it("builds the REST call: escaped path segments, query as strings, the body's fields as JSON", () => {
    expect(addLabels.toRequest({ owner: "a c", repo: "b/d", number: 3, labels: ["bug"], dry_run: true })).toEqual({
      method: "POST",
      path: "/repos/a%20c/b%2Fd/issues/3/labels",
      query: { dry_run: "true" },
      body: { labels: ["bug"] },
    });
    expect(updateCustomer.toRequest({ id: "cus_1", balance: 5 })).toEqual({
      method: "POST",
      path: "/v1/customers/cus_1",
      query: {},
      body: { balance: 5 },
    });
  });

  it("fills a rest-of-path parameter segment by segment", () => {
    expect(pathOf("/repos/:owner/contents/*path", { owner: "o", path: "docs/a b.md" }, ["owner", "path"])).toBe(
      "/repos/o/contents/docs/a%20b.md",
    );
  });
});

describe("the route's OpenAPI entry comes from the same declaration", () => {
  it("lists path and query parameters and the body's schema in its encoding", () => {
    const op = openapiOperation(jsonRoute) as {
      operationId: string;
      parameters: { name: string; in: string; required: boolean; schema: unknown; description?: string }[];
      requestBody: { required: boolean; content: Record<string, { schema: { properties: Record<string, unknown> } }> };
    };
    expect(op.operationId).toBe("issues.addLabels");
    expect(op.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ["owner", "path", true],
      ["repo", "path", true],
      ["number", "path", true],
      ["dry_run", "query", false],
      ["tags", "query", false],
    ]);
    expect(op.parameters[2]).toMatchObject({ schema: { type: "integer" }, description: "The issue's number" });
    expect(op.requestBody.required).toBe(true);
    expect(Object.keys(op.requestBody.content["application/json"]?.schema.properties ?? {})).toEqual(["labels"]);
    const form = openapiOperation(formRoute) as { requestBody: { content: Record<string, unknown> } };
    expect(Object.keys(form.requestBody.content)).toEqual(["application/x-www-form-urlencoded"]);
  });
});
