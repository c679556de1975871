// Deep and wide GraphQL documents generated from a twin's own schema (read by introspection, as
// any client can): selections that follow object fields level after level (Linear's
// issues → team → issues … of issue 36), the same selection under hundreds of aliases, and
// arguments filled with hostile values (LIKE wildcards in `contains`, huge ints, deep filters).
// A twin that grows its schema is covered by what it answers to introspection.
import fc from "fast-check";
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isRequiredArgument,
} from "graphql";
import { hostileText } from "./arbitraries";

/** A hostile literal for an input type, `depth` levels of input objects at most; choices drive every pick. */
function literalFor(type: GraphQLInputType, text: () => string, pick: () => number, depth: number): string {
  if (isNonNullType(type)) return literalFor(type.ofType, text, pick, depth);
  if (isListType(type)) return `[${literalFor(type.ofType, text, pick, depth)}]`;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    if (depth <= 0 || fields.length === 0) return "{}";
    const field = fields[pick() % fields.length];
    return `{ ${field.name}: ${literalFor(field.type, text, pick, depth - 1)} }`;
  }
  if (isEnumType(type)) {
    const values = type.getValues();
    return values.length ? values[pick() % values.length].name : "X";
  }
  switch (type.name) {
    case "Int":
      return ["99999999999999999999", "-1", "2147483647", "0"][pick() % 4];
    case "Float":
      return ["1e308", "-1", "0.5"][pick() % 3];
    case "Boolean":
      return "true";
    default:
      // String, ID, DateTime, JSON…: text, JSON-escaped (GraphQL strings take JSON's escapes).
      return JSON.stringify(text());
  }
}

/** Arguments for a field: every required one, and now and then an optional one, all hostile. */
function argumentsFor(args: readonly GraphQLArgument[], text: () => string, pick: () => number): string {
  const chosen = args.filter((a) => isRequiredArgument(a) || pick() % 3 === 0);
  if (!chosen.length) return "";
  return `(${chosen.map((a) => `${a.name}: ${literalFor(a.type, text, pick, 3)}`).join(", ")})`;
}

/** Fields of a type that lead to another object type (where nesting can go on). */
const objectFields = (type: GraphQLObjectType): GraphQLField<unknown, unknown>[] =>
  Object.values(type.getFields()).filter((f) => isObjectType(getNamedType(f.type)));

/** A selection `depth` object levels deep from `type`, each level's field picked by `pick`. */
function deepSelection(type: GraphQLObjectType, depth: number, text: () => string, pick: () => number): string {
  if (depth <= 0) return "__typename";
  const fields = objectFields(type);
  if (!fields.length) return "__typename";
  const field = fields[pick() % fields.length];
  const next = getNamedType(field.type);
  const inner = isObjectType(next) ? deepSelection(next, depth - 1, text, pick) : "__typename";
  return `${field.name}${argumentsFor(field.args, text, pick)} { __typename ${inner} }`;
}

/** A document: a query (or a mutation, now and then) `depth` deep, repeated under `width` aliases. */
export function graphqlDocuments(schema: GraphQLSchema): fc.Arbitrary<{ query: string; depth: number; width: number }> {
  const query = schema.getQueryType();
  const mutation = schema.getMutationType();
  return fc
    .record({
      depth: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 13, max: 150 })),
      width: fc.oneof({ weight: 4, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 600 }) }),
      mutate: fc.boolean(),
      choices: fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
      texts: fc.array(hostileText, { minLength: 8, maxLength: 8 }),
    })
    .map(({ depth, width, mutate, choices, texts }) => {
      let c = 0;
      let t = 0;
      const pick = () => choices[c++ % choices.length] + c;
      const text = () => texts[t++ % texts.length];
      const root = mutate && mutation ? mutation : query;
      if (!root) return { query: "{ __typename }", depth, width };
      const selection = deepSelection(root, depth, text, pick);
      const body = width === 1 ? selection : Array.from({ length: width }, (_, i) => `a${i}: ${selection}`).join(" ");
      return { query: `${root === mutation ? "mutation " : ""}{ ${body} }`, depth, width };
    });
}

/** Text that is not GraphQL, or barely: deep braces, an open string, a huge document of one token. */
export const brokenGraphql: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 5000 }).map((n) => "{".repeat(n)),
  fc.integer({ min: 1, max: 2000 }).map((n) => `{ ${"issues { nodes { ".repeat(n)}id${" } }".repeat(n)} }`),
  fc.integer({ min: 1, max: 3000 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `f${i}: __typename`).join(" ")} }`),
  fc.integer({ min: 1, max: 500 }).map((n) => `query ($a: ${"[".repeat(n)}Int${"]".repeat(n)}) { __typename }`),
  fc.constantFrom(
    '{ issues(filter: { title: { contains: "%" } }) { nodes { id } } }',
    '{ "',
    "fragment A on Issue { ...A } { __typename }",
  ),
);
