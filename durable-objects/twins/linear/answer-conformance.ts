// Node only: a Linear answer checked against Linear's published GraphQL schema for the query
// that produced it (test/node/fidelity/conformance.test.ts runs it over a whole @linear/sdk session).
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
  buildSchema,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
} from "graphql";

/** Linear's SDL as the SDK the twin was built against publishes it. */
export const LINEAR_SCHEMA_FILE = "test/fixtures/service-specs/linear-schema-88.3.0.graphql";

/** One way an answer's data differs from what Linear's schema says the query returns. */
export interface AnswerDifference {
  path: string;
  kind: "missing" | "extra" | "type";
  message: string;
}

const SCALAR_JS: Record<string, string> = { String: "string", ID: "string", Int: "number", Float: "number", Boolean: "boolean" };

/**
 * An answer's `data` checked against Linear's schema for the query that produced it: every
 * selected field present under its response key, nothing else, each value of its field's type
 * (nullability, lists, scalars, enum values). Custom scalars (DateTime, JSON…) take any JSON value.
 */
export function answerDifferences(schema: GraphQLSchema, query: string, data: unknown, operationName?: string): AnswerDifference[] {
  const doc = parse(query);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  // A document of several operations is answered for the one `operationName` names.
  const operation = doc.definitions.find(
    (d) => d.kind === Kind.OPERATION_DEFINITION && (operationName === undefined || d.name?.value === operationName),
  );
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) return [];
  const root = operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  const out: AnswerDifference[] = [];
  const at = (p: string, kind: AnswerDifference["kind"], message: string) => out.push({ path: p || "/", kind, message });

  const check = (value: unknown, type: GraphQLOutputType, selection: SelectionSetNode | undefined, p: string) => {
    if (value === null || value === undefined) {
      if (isNonNullType(type)) at(p, "type", `null where the schema says ${String(type)}`);
      return;
    }
    const t = isNonNullType(type) ? type.ofType : type;
    if (isListType(t)) {
      if (!Array.isArray(value)) return at(p, "type", `${typeof value} where the schema says ${String(t)}`);
      value.forEach((v, i) => check(v, t.ofType, selection, `${p}/${i}`));
      return;
    }
    if (isScalarType(t)) {
      const js = SCALAR_JS[t.name];
      if (js && typeof value !== js) at(p, "type", `${typeof value} where the schema says ${t.name}`);
      return;
    }
    if (isEnumType(t)) {
      if (typeof value !== "string" || !t.getValue(value)) at(p, "type", `${JSON.stringify(value)} is not a value of ${t.name}`);
      return;
    }
    if (typeof value !== "object" || Array.isArray(value)) return at(p, "type", `${typeof value} where the schema says ${t.name}`);
    const record = value as Record<string, unknown>;
    // An interface or union answer says which object it is; its fields are read from that type.
    const named = isAbstractType(t) && typeof record.__typename === "string" ? schema.getType(record.__typename) : t;
    const objectType = named && (isObjectType(named) || isAbstractType(named)) ? named : t;
    const selected = new Set<string>();
    const visit = (set: SelectionSetNode | undefined) => {
      for (const sel of set?.selections ?? []) {
        if (sel.kind === Kind.FIELD) {
          const key = sel.alias?.value ?? sel.name.value;
          selected.add(key);
          if (sel.name.value === "__typename") continue;
          const field = "getFields" in objectType ? objectType.getFields()[sel.name.value] : undefined;
          if (!field) continue; // a field of another member of a union: its inline fragment applies elsewhere
          if (!(key in record)) at(`${p}/${key}`, "missing", `the schema's ${objectType.name}.${sel.name.value} is selected`);
          else check(record[key], field.type, sel.selectionSet, `${p}/${key}`);
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          const on = sel.typeCondition?.name.value;
          if (!on || on === objectType.name || !isObjectType(objectType) || objectType.getInterfaces().some((i) => i.name === on))
            visit(sel.selectionSet);
        } else visit(fragments.get(sel.name.value)?.selectionSet);
      }
    };
    visit(selection);
    for (const key of Object.keys(record)) if (!selected.has(key)) at(`${p}/${key}`, "extra", "not selected by the query");
  };
  if (root) check(data, root, operation.selectionSet, "");
  return out;
}

/** Linear's schema, as the conformance test reads it. */
export const linearSchema = (root: string) =>
  buildSchema(readFileSync(path.join(root, LINEAR_SCHEMA_FILE), "utf8"), { assumeValidSDL: true });
