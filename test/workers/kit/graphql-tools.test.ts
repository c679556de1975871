// A GraphQL operation as an MCP tool (durable-objects/twins/kit/graphql-tools.ts): its arguments
// are the operation's variables, typed, required and described from the schema, so a tool is a
// name, a description and a document. Plain functions over a small schema, no HTTP.
import { buildSchema, type GraphQLSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { graphqlTools } from "../../../durable-objects/twins/kit/graphql-tools";

const SDL = `
"""A moment as ISO 8601 text."""
scalar Moment
scalar Blob

enum Color { red green blue }

"""Which tasks to keep; filters combine with and/or."""
input TaskFilter { and: [TaskFilter!], or: [TaskFilter!], title: String, owner: OwnerFilter }
input OwnerFilter { name: String, tasks: TaskFilter }

input TaskInput {
  "What the task is called"
  title: String!
  color: Color
  tags: [String!]
  due: Moment
  size: Int = 1
  extra: Blob
}

type Task { id: ID! title: String! }

type Query {
  tasks("How many to return" first: Int, filter: TaskFilter): [Task!]!
}

type Mutation {
  createTask(input: TaskInput!): Task!
  deleteTask(id: ID!): Boolean!
}
`;

let built = 0;
const schema = buildSchema(SDL);
const schemaOnce = (): GraphQLSchema => {
  built += 1;
  return schema;
};

const [listTasks, createTask, createFlat, deleteTask] = graphqlTools(
  { path: "/gql", schema: schemaOnce, scalars: { Moment: z.string() }, notes: { id: "The task's id", first: "Shared words on first" } },
  [
    {
      name: "list_tasks",
      description: "Lists tasks.",
      document: "query($first: Int, $filter: TaskFilter) { tasks(first: $first, filter: $filter) { id } }",
    },
    { name: "create_task", description: "Creates a task.", document: "mutation($input: TaskInput!) { createTask(input: $input) { id } }" },
    {
      name: "create_task_flat",
      description: "Creates a task from top-level arguments.",
      document:
        "mutation($title: String!, $color: Color, $due: Moment) { createTask(input: { title: $title, color: $color, due: $due }) { id } }",
      notes: { due: "When it is due" },
    },
    { name: "delete_task", description: "Deletes a task.", destructive: true, document: "mutation($id: ID!) { deleteTask(id: $id) }" },
  ],
);

/** What a schema says of itself, as JSON Schema and the MCP listing read it. */
const descriptionOf = (schema: z.core.$ZodType | undefined) => (schema ? z.globalRegistry.get(schema)?.description : undefined);

const must = <T>(value: T | undefined): T => {
  if (value === undefined) throw new Error("missing");
  return value;
};

describe("a GraphQL tool is derived only when it is first used", () => {
  it("builds no schema until a tool's arguments are asked for, then once for every tool", () => {
    expect(built).toBe(0);
    expect(must(listTasks).name).toBe("list_tasks");
    expect(must(deleteTask).destructive).toBe(true);
    expect(built).toBe(0);
    expect(must(listTasks).readOnly).toBe(true);
    expect(must(createTask).readOnly).toBe(false);
    expect(built).toBe(1);
  });
});

describe("a GraphQL tool's arguments are its operation's variables, typed by the schema", () => {
  it("requires a non-null variable and lets a nullable one be left out or null", () => {
    const input = must(createFlat).input;
    expect(input.safeParse({}).error?.issues[0]?.path).toEqual(["title"]);
    expect(input.safeParse({ title: "t", color: null }).success).toBe(true);
    expect(input.safeParse({ title: "t", colour: "red" }).success).toBe(false);
  });

  it("maps scalars, enums and lists: an enum refuses a value outside it, an Int is a 32-bit integer", () => {
    const flat = must(createFlat).input;
    expect(flat.safeParse({ title: "t", color: "green" }).success).toBe(true);
    expect(flat.safeParse({ title: "t", color: "purple" }).error?.issues[0]?.path).toEqual(["color"]);
    const list = must(listTasks).input;
    expect(list.safeParse({ first: 10 }).success).toBe(true);
    expect(list.safeParse({ first: 1.5 }).success).toBe(false);
    expect(list.safeParse({ first: 2 ** 31 }).success).toBe(false);
    expect(list.safeParse({ first: "10" }).success).toBe(false);
  });

  it("builds an input object field by field: non-null required unless it has a default, unknown fields refused", () => {
    const input = must(createTask).input;
    expect(input.safeParse({ input: { title: "t", tags: ["a"], size: 2, due: "2026-01-01" } }).success).toBe(true);
    expect(input.safeParse({ input: { color: "red" } }).error?.issues[0]?.path).toEqual(["input", "title"]);
    expect(input.safeParse({ input: { title: "t", tags: "a" } }).error?.issues[0]?.path).toEqual(["input", "tags"]);
    expect(input.safeParse({ input: { title: "t", owner: "me" } }).success).toBe(false);
    // A custom scalar nobody mapped takes any JSON value.
    expect(input.safeParse({ input: { title: "t", extra: { any: ["thing"] } } }).success).toBe(true);
    const json = z.toJSONSchema(input) as unknown as { required: string[]; properties: { input: { required: string[] } } };
    expect(json.required).toEqual(["input"]);
    expect(json.properties.input.required).toEqual(["title"]);
  });

  it("takes an input object that reaches itself as an open object, described by its type", () => {
    const filter = must(must(listTasks).input.shape.filter);
    expect(z.safeParse(filter, { or: [{ title: "a" }, { owner: { tasks: { title: "b" } } }] }).success).toBe(true);
    expect(z.safeParse(filter, "title").success).toBe(false);
    expect(descriptionOf(filter)).toContain("TaskFilter");
    expect(descriptionOf(filter)).toContain("filters combine with and/or");
  });

  it("describes an argument by the tool's note, else the schema's argument or input field, else the shared note", () => {
    expect(descriptionOf(must(listTasks).input.shape.first)).toBe("How many to return");
    expect(descriptionOf(must(createFlat).input.shape.title)).toBe("What the task is called");
    expect(descriptionOf(must(createFlat).input.shape.due)).toBe("When it is due");
    expect(descriptionOf(must(deleteTask).input.shape.id)).toBe("The task's id");
  });
});

describe("a GraphQL tool sends its one document", () => {
  it("POSTs the document with the arguments given as variables, leaving out the rest", () => {
    expect(must(createFlat).toRequest({ title: "t", color: "red" })).toEqual({
      method: "POST",
      path: "/gql",
      body: {
        query:
          "mutation($title: String!, $color: Color, $due: Moment) { createTask(input: { title: $title, color: $color, due: $due }) { id } }",
        variables: { title: "t", color: "red" },
      },
    });
  });

  it("refuses arguments its schema refuses, before any call", () => {
    expect(() => must(createFlat).toRequest({ color: "red" })).toThrow();
  });

  it("fails loudly, naming the tool, when a variable's type is not in the schema or the document holds two operations", () => {
    const [broken] = graphqlTools({ path: "/gql", schema: () => schema }, [
      { name: "broken", description: "Types a variable the schema lacks.", document: "query($n: Count) { tasks(first: $n) { id } }" },
    ]);
    expect(() => must(broken).input).toThrow(/tool broken: variable \$n/);
    const [twoOps] = graphqlTools({ path: "/gql", schema: () => schema }, [
      { name: "two", description: "Two operations.", document: "query A { tasks { id } } query B { tasks { id } }" },
    ]);
    expect(() => must(twoOps).input).toThrow(/exactly one operation/);
  });
});
