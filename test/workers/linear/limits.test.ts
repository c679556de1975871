// Linear's complexity limit, as the twin keeps it: a query over 10,000 points (or nested past the
// twin's depth bound) is refused before it runs, in Linear's own "Query too complex" shape, fast,
// with a small tape row and the world unchanged; everything @linear/sdk sends stays under it.
import { InvalidInputLinearError } from "@linear/sdk";
import { Kind, buildSchema, parse, visit, type DocumentNode, type FragmentDefinitionNode } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { checkDocument } from "../../../durable-objects/twins/kit/graphql-limits";
import { LINEAR_GRAPHQL_LIMITS } from "../../../durable-objects/twins/linear/limits";
import { linearSchema } from "../../../durable-objects/twins/linear/schema";
import linearSdl from "../../fixtures/service-specs/linear-schema-88.3.0.graphql?raw";
import documentsSdl from "../../fixtures/service-specs/linear-sdk-88.3.0-documents.graphql?raw";
import { twinFetch, type CreatedSandbox } from "../helpers";
import { gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

interface TapeRow {
  operation: string;
  status: number;
  mutated: boolean;
  response_body: unknown;
}

const tape = async (sb: CreatedSandbox) => (await (await twinFetch(sb, "/_pome/events", {}, "linear")).json()) as TapeRow[];
const state = async (sb: CreatedSandbox) => (await twinFetch(sb, "/_pome/state", {}, "linear")).text();

/** `issues { nodes { team { issues { nodes { team … } } } } }`, `levels` connections deep. */
function issuesTeamChain(levels: number): string {
  let inner = "id";
  for (let i = 0; i < levels; i++) inner = `issues { nodes { id team { ${inner} } } }`;
  return `query Deep { teams { nodes { ${inner} } } }`;
}

const TOO_COMPLEX = /^The query is too complex\. Complexity: [\d.e+]+\. Maximum allowed complexity: 10000\.$/;

/** Sends a query by raw fetch; checks Linear's refusal, the time it took, the tape row and the world. */
async function expectRefused(sb: CreatedSandbox, query: string, variables: Record<string, unknown> = {}, presentable = TOO_COMPLEX) {
  const before = await state(sb);
  const rowsBefore = (await tape(sb)).length;
  const started = Date.now();
  const res = await gql(sb, query, variables);
  const took = Date.now() - started;
  expect(res.status).toBe(400);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors).toHaveLength(1);
  const [error] = res.body.errors ?? [];
  expect(error.message).toBe("Query too complex");
  expect(error.extensions).toMatchObject({
    type: "invalid input",
    code: "INPUT_ERROR",
    statusCode: 400,
    userError: true,
    http: { status: 400 },
  });
  expect(error.extensions.userPresentableMessage).toMatch(presentable);
  expect(took).toBeLessThan(1000);
  const rows = await tape(sb);
  expect(rows).toHaveLength(rowsBefore + 1);
  const row = rows[rows.length - 1];
  expect(row).toMatchObject({ status: 400, mutated: false });
  expect(JSON.stringify(row.response_body).length).toBeLessThan(1000);
  expect(await state(sb)).toBe(before);
  return error.extensions.userPresentableMessage as string;
}

describe("a query over Linear's complexity limit is refused before it runs, in Linear's shape", () => {
  it("refuses ten levels of issues → team → issues with the complexity it found", async () => {
    const sb = await linearSandbox();
    const message = await expectRefused(sb, issuesTeamChain(10));
    const figure = Number(/Complexity: ([\d.]+)/.exec(message)?.[1]);
    expect(figure).toBeGreaterThan(10_000);
  });

  it("refuses a hundred levels just as fast", async () => {
    const sb = await linearSandbox();
    await expectRefused(sb, issuesTeamChain(100));
  });

  it("refuses a cheap chain nested past the twin's depth bound", async () => {
    const sb = await linearSandbox();
    const chain = `query Parents { issue(id: "ENG-2") { ${"parent { ".repeat(40)}id${" }".repeat(40)} } }`;
    await expectRefused(sb, chain, {}, /^The query is too deeply nested\. Depth: 42\. Maximum allowed depth: 32\.$/);
  });

  it("counts every alias: many small aliased connections add up past the limit", async () => {
    const sb = await linearSandbox();
    const aliases = Array.from({ length: 200 }, (_, i) => `a${i}: issues { nodes { id title } }`).join("\n");
    await expectRefused(sb, `query Wide { ${aliases} }`);
  });

  it("prices a connection by its page size, literal or in a variable", async () => {
    const sb = await linearSandbox();
    await expectRefused(sb, "query Huge { issues(first: 100000) { nodes { id } } }");
    await expectRefused(sb, "query Huge($n: Int) { issues(first: $n) { nodes { id } } }", { n: 100_000 });
    await expectRefused(sb, "query Huge($n: Int = 100000) { issues(first: $n) { nodes { id } } }");
  });

  it("is an InvalidInputLinearError to @linear/sdk, and a query under the limit still answers", async () => {
    const sb = await linearSandbox();
    const linear = linearFor(sb);
    const refused = await linear.issues({ first: 100_000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidInputLinearError);
    expect((refused as InvalidInputLinearError).message).toMatch(/too complex/i);
    // 45 points an issue with the SDK's own fragment: 100 of them is 4,500.
    expect((await linear.issues({ first: 100 })).nodes.length).toBe(2);
    const nested = await gql(sb, "{ teams(first: 5) { nodes { issues(first: 10) { nodes { id team { id } } } } } }");
    expect(nested.status).toBe(200);
  });

  it("a document with several operations is measured whole", async () => {
    const sb = await linearSandbox();
    await expectRefused(sb, `query Small { viewer { id } }\n${issuesTeamChain(10)}`.replace("query Deep", "query Big"), {});
  });
});

describe("every operation @linear/sdk sends stays under the limits", () => {
  const documents = parse(documentsSdl);
  const fragments = new Map(
    documents.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );

  /** One operation with the fragments it spreads, as the SDK sends it. */
  function operationDocuments(): { name: string; doc: DocumentNode }[] {
    const out: { name: string; doc: DocumentNode }[] = [];
    for (const op of documents.definitions) {
      if (op.kind !== Kind.OPERATION_DEFINITION) continue;
      const needed = new Map<string, FragmentDefinitionNode>();
      const pending: (typeof op | FragmentDefinitionNode)[] = [op];
      for (let node = pending.pop(); node; node = pending.pop()) {
        visit(node, {
          FragmentSpread(spread) {
            const fragment = fragments.get(spread.name.value);
            if (fragment && !needed.has(spread.name.value)) {
              needed.set(spread.name.value, fragment);
              pending.push(fragment);
            }
          },
        });
      }
      out.push({ name: op.name?.value ?? "", doc: { kind: Kind.DOCUMENT, definitions: [op, ...needed.values()] } });
    }
    return out;
  }

  it("measured against Linear's own schema at the default page size, none passes a limit", () => {
    const schema = buildSchema(linearSdl);
    const ops = operationDocuments();
    expect(ops.length).toBeGreaterThan(600);
    const over = ops.flatMap(({ name, doc }) => {
      const { breach } = checkDocument(schema, doc, {}, LINEAR_GRAPHQL_LIMITS);
      return breach ? [`${name}: ${breach.limit} ${breach.found}`] : [];
    });
    expect(over).toEqual([]);
  });

  it("measured against the twin's schema, those it serves pass too", () => {
    const schema = linearSchema();
    const over = operationDocuments().flatMap(({ name, doc }) => {
      const { breach } = checkDocument(schema, doc, {}, LINEAR_GRAPHQL_LIMITS);
      return breach ? [`${name}: ${breach.limit} ${breach.found}`] : [];
    });
    expect(over).toEqual([]);
  });
});
