// The Linear twin declares its inputs once: each route's body and query are zod declarations the
// route reads and refuses in Linear's own shape, and that /_pome/openapi.json describes; each MCP
// tool's arguments are derived from its GraphQL document and the twin's schema, never re-typed.
import { SELF } from "cloudflare:test";
import { GraphQLEnumType, Kind, parse, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { linearSchema } from "../../../durable-objects/twins/linear/schema";
import { linearTools } from "../../../durable-objects/twins/linear/tools";
import type { TwinTool } from "../../../durable-objects/twins/types";
import { twinFetch } from "../helpers";
import { linearSandbox } from "./fixtures";

const toolNamed = (name: string): TwinTool => {
  const found = linearTools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

/** The variables a tool's document declares: name, and whether it is non-null without a default. */
function variablesOf(tool: TwinTool): { name: string; nonNull: boolean }[] {
  const body = tool.toRequest(requiredArgs(tool)).body as { query: string };
  const operation = parse(body.query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return (operation?.variableDefinitions ?? []).map((v) => ({
    name: v.variable.name.value,
    nonNull: v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue,
  }));
}

/** A value for each required argument, so toRequest can be asked for the document. */
function requiredArgs(tool: TwinTool): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(tool.input.shape)) {
    if (z.safeParse(schema, undefined).success) continue;
    args[key] = [["ENG"], "ENG", 1, "blocks", [{ teamId: "ENG" }]].find((v) => z.safeParse(schema, v).success);
  }
  return args;
}

const enumValues = (name: string): string[] => {
  const type = linearSchema().getType(name);
  if (!(type instanceof GraphQLEnumType)) throw new Error(`${name} is not an enum`);
  return type.getValues().map((v) => v.name);
};

describe("linear MCP tools take their arguments from the schema", () => {
  it("has exactly the document's variables as arguments, required where the variable is non-null", () => {
    for (const tool of linearTools) {
      const variables = variablesOf(tool);
      expect(Object.keys(tool.input.shape).sort(), tool.name).toEqual(variables.map((v) => v.name).sort());
      for (const v of variables)
        expect(z.safeParse(tool.input.shape[v.name] ?? z.never(), undefined).success, `${tool.name}.${v.name}`).toBe(!v.nonNull);
    }
  });

  it("refuses a value outside an enum of the schema, and takes each of its values", () => {
    const relate = toolNamed("create_issue_relation").input;
    const base = { issueId: "ENG-1", relatedIssueId: "ENG-2" };
    for (const type of enumValues("IssueRelationType")) expect(relate.safeParse({ ...base, type }).success, type).toBe(true);
    const refused = relate.safeParse({ ...base, type: "blocked_by" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(["type"]);
    expect(toolNamed("list_issues").input.safeParse({ orderBy: "priority" }).success).toBe(false);
    expect(enumValues("PaginationOrderBy")).toEqual(["createdAt", "updatedAt"]);
  });

  it("requires a non-null variable, takes null for a nullable one, and types an Int as an integer", () => {
    const update = toolNamed("update_issue").input;
    expect(update.safeParse({ title: "No id" }).error?.issues[0]?.path).toEqual(["issueId"]);
    expect(update.safeParse({ issueId: "ENG-1", assigneeId: null }).success).toBe(true);
    expect(update.safeParse({ issueId: "ENG-1", priority: 1.5 }).error?.issues[0]?.path).toEqual(["priority"]);
    // Strict: a misspelt argument is refused, not dropped.
    expect(update.safeParse({ issueId: "ENG-1", asignee: "bob" }).success).toBe(false);
  });

  it("types a list of input objects field by field, from the input type", () => {
    const batch = toolNamed("create_issues").input;
    expect(batch.safeParse({ issues: [{ teamId: "ENG", title: "One", priority: 2 }] }).success).toBe(true);
    // IssueCreateInput.teamId is String!; `estimate` an Int; the input type has no `team` field.
    expect(batch.safeParse({ issues: [{ title: "No team" }] }).error?.issues[0]?.path).toEqual(["issues", 0, "teamId"]);
    expect(batch.safeParse({ issues: [{ teamId: "ENG", estimate: "three" }] }).error?.issues[0]?.path).toEqual(["issues", 0, "estimate"]);
    expect(batch.safeParse({ issues: [{ teamId: "ENG", team: "ENG" }] }).success).toBe(false);
  });

  it("keeps each tool's listing small: a filter that nests itself is an open object, named by its type", () => {
    const filter = toolNamed("list_issues").input.shape.filter ?? z.never();
    expect(z.safeParse(filter, { or: [{ priority: { eq: 1 } }, { and: [{ title: { contains: "x" } }] }] }).success).toBe(true);
    expect(z.globalRegistry.get(filter)?.description).toContain("IssueFilter");
    for (const tool of linearTools) expect(JSON.stringify(z.toJSONSchema(tool.input)).length, tool.name).toBeLessThan(12_000);
  });

  it("sends the document with the arguments given as its variables, and nothing for those left out", () => {
    const request = toolNamed("create_issue").toRequest({ teamId: "ENG", title: "From a tool", priority: 2 });
    expect(request).toMatchObject({
      method: "POST",
      path: "/graphql",
      body: { variables: { teamId: "ENG", title: "From a tool", priority: 2 } },
    });
    expect(Object.keys((request.body as { variables: object }).variables)).toEqual(["teamId", "title", "priority"]);
  });
});

describe("linear routes are declared", () => {
  it("declares every route's inputs", () => {
    const undeclared = linearTwin.routes.filter((r) => !r.declaration).map((r) => r.operation);
    expect(undeclared).toEqual([]);
  });

  it("refuses a query that is not a string in Linear's shape, naming it, with the caller's rate-limit headers", async () => {
    const sb = await linearSandbox();
    const post = (body: string, authorization = sb.provider_credentials.linear.token) =>
      SELF.fetch(`${sb.per_twin.linear.api_url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization },
        body,
      });
    const res = await post(JSON.stringify({ query: 42 }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      errors: [
        {
          message: "Must provide query string.",
          extensions: {
            type: "graphql error",
            code: "BAD_REQUEST",
            statusCode: 400,
            userError: true,
            userPresentableMessage: "Must provide query string.",
          },
        },
      ],
    });
    expect(res.headers.get("x-ratelimit-requests-remaining")).toMatch(/^\d+$/);
    // A wrong-typed operationName reads as absent, as it always did.
    const named = await post(JSON.stringify({ query: "{ viewer { email } }", operationName: 7 }));
    expect(await named.json()).toEqual({ data: { viewer: { email: "ada@acme.test" } } });
    // An unknown caller is told so before the body is read.
    expect((await post("[1]", `Bearer lin_oauth_${sb.session_id.slice(4)}deadbeef`)).status).toBe(401);
    const tape = (await (await twinFetch(sb, "/_pome/events", {}, "linear")).json()) as { operation: string; status: number }[];
    expect(tape.slice(0, 2).map((r) => [r.operation, r.status])).toEqual([
      ["invalid", 400],
      ["viewer", 200],
    ]);
  });

  it("describes /graphql's body and the OAuth endpoints' inputs in /_pome/openapi.json", async () => {
    const sb = await linearSandbox();
    const doc = (await (await twinFetch(sb, "/_pome/openapi.json", {}, "linear")).json()) as {
      paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string }[]; requestBody?: unknown }>>;
    };
    const graphql = doc.paths["/graphql"]?.post;
    expect(graphql?.operationId).toBe("graphql");
    expect(graphql?.requestBody).toMatchObject({
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["query"],
            properties: { query: { type: "string" }, variables: { type: "object" }, operationName: { type: "string" } },
          },
        },
      },
    });
    expect(doc.paths["/oauth/authorize"]?.get?.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(["query:client_id", "query:redirect_uri", "query:code_challenge"]),
    );
    expect(doc.paths["/oauth/token"]?.post?.requestBody).toMatchObject({
      content: {
        "application/x-www-form-urlencoded": {
          schema: { properties: { grant_type: { type: "string" }, code_verifier: { type: "string" } } },
        },
      },
    });
  });
});
