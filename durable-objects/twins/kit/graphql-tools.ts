// An MCP tool that is one GraphQL operation. Its arguments are the operation's variables, and what
// each one takes is read from the schema the endpoint serves: its type (scalars, enums, lists,
// input objects), required when non-null without a default, described by the argument or input
// field it fills where the schema describes it. A tool is then a name, a description and a
// document, and cannot drift from the schema.
//
// An input object that is flattened into top-level arguments is written in the document itself,
// as an object literal of variables (`input: { title: $title, teamId: $teamId }`): GraphQL leaves
// a field whose variable was not sent out of the object, exactly as if the client had omitted it.
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  Kind,
  TypeInfo,
  getNamedType,
  isInputType,
  parse,
  typeFromAST,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { z } from "zod";
import type { TwinTool } from "../types";

/** One tool: the operation it sends, and what the schema cannot say about it. */
export interface GraphqlToolSpec {
  name: string;
  description: string;
  /** Exactly one operation; each of its variables is an argument of the tool, under the same name. */
  document: string;
  /** Whether the call destroys something (a delete, an archive). A query only reads. */
  destructive?: boolean;
  /** Descriptions for this tool's arguments, by variable name: they win over the schema's and the shared ones. */
  notes?: Readonly<Record<string, string>>;
}

/** The endpoint the tools call, and what every tool of it shares. */
export interface GraphqlEndpoint {
  /** The path the operation is POSTed to. */
  path: string;
  /** The schema the endpoint serves; asked for when a tool's arguments are first needed, not at import. */
  schema(): GraphQLSchema;
  /** Zod for the schema's own scalars (`DateTime`); any other custom scalar takes any JSON value but null. */
  scalars?: Readonly<Record<string, z.ZodType>>;
  /** Descriptions the schema lacks, by variable name, for every tool (`first`, `after`…). */
  notes?: Readonly<Record<string, string>>;
}

/** Any JSON value but null: what a custom scalar nobody mapped accepts. */
const ANY_JSON = z.union([z.string(), z.number(), z.boolean(), z.array(z.unknown()), z.record(z.string(), z.unknown())]);

/** The tools of one endpoint, each derived when first asked for its arguments. */
export function graphqlTools(endpoint: GraphqlEndpoint, specs: readonly GraphqlToolSpec[]): TwinTool[] {
  let inputs: InputSchemas | undefined;
  const inputsOf = () => {
    inputs ??= new InputSchemas(endpoint.schema(), endpoint.scalars ?? {});
    return inputs;
  };
  return specs.map((spec) => graphqlTool(endpoint, spec, inputsOf));
}

interface Derived {
  input: z.ZodObject<z.ZodRawShape>;
  readOnly: boolean;
}

function graphqlTool(endpoint: GraphqlEndpoint, spec: GraphqlToolSpec, inputsOf: () => InputSchemas): TwinTool {
  let derived: Derived | undefined;
  // Derived on first use: building the schema and reading the documents costs time an isolate that
  // never lists its tools should not spend.
  const derive = (): Derived => {
    derived ??= deriveTool(endpoint, spec, inputsOf());
    return derived;
  };
  return {
    name: spec.name,
    description: spec.description,
    get input() {
      return derive().input;
    },
    get readOnly() {
      return derive().readOnly;
    },
    destructive: spec.destructive ?? false,
    toRequest(raw) {
      const args = derive().input.parse(raw) as Record<string, unknown>;
      // A variable not sent is absent, so the schema's defaults and the server's own apply.
      const variables = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
      return { method: "POST", path: endpoint.path, body: { query: spec.document, variables } };
    },
  };
}

function deriveTool(endpoint: GraphqlEndpoint, spec: GraphqlToolSpec, inputs: InputSchemas): Derived {
  // Not validated here: graphql-js's full validation of every document would cost a cold isolate
  // far more than deriving the tools does, and the endpoint validates each call it serves. A
  // twin's tests validate its tools' documents; a variable whose type the schema lacks throws.
  const operations = parse(spec.document).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operations[0];
  if (!operation || operations.length > 1) throw new Error(`tool ${spec.name}: its document must hold exactly one operation`);
  try {
    return {
      input: argumentsOf(inputs, operation, { ...endpoint.notes, ...positionNotes(inputs.schema, operation), ...spec.notes }),
      readOnly: operation.operation === "query",
    };
  } catch (err) {
    throw new Error(`tool ${spec.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The strict zod object of an operation's variables: a misspelt argument is refused, not dropped. */
export function argumentsOf(
  inputs: InputSchemas,
  operation: OperationDefinitionNode,
  notes: Readonly<Record<string, string>> = {},
): z.ZodObject<z.ZodRawShape> {
  const shape: Record<string, z.ZodType> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(inputs.schema, definition.type);
    if (!type || !isInputType(type)) throw new Error(`variable $${name} has no input type in the schema`);
    const required = definition.type.kind === Kind.NON_NULL_TYPE && definition.defaultValue === undefined;
    shape[name] = described(inputs.of(type), required, notes[name] ?? inputs.noteOf(type));
  }
  return z.strictObject(shape);
}

/**
 * What the schema says of each variable's place: the description of the argument it is passed
 * to, or of the input object field it fills. A variable used in several places takes the first.
 */
function positionNotes(schema: GraphQLSchema, operation: OperationDefinitionNode): Record<string, string> {
  const info = new TypeInfo(schema);
  const notes: Record<string, string> = {};
  visit(
    operation,
    visitWithTypeInfo(info, {
      Variable(node, _key, parent) {
        const name = node.name.value;
        if (notes[name] !== undefined || !isNode(parent)) return;
        let description: string | null | undefined;
        if (parent.kind === Kind.ARGUMENT) description = info.getArgument()?.description;
        else if (parent.kind === Kind.OBJECT_FIELD) {
          const owner = info.getParentInputType();
          const object = owner && getNamedType(owner);
          if (object instanceof GraphQLInputObjectType) description = object.getFields()[parent.name.value]?.description;
        }
        if (description) notes[name] = description;
      },
    }),
  );
  return notes;
}

const isNode = (value: unknown): value is ASTNode => typeof value === "object" && value !== null && "kind" in value;

/** A field of an object: optional unless required, described on the outermost schema, where JSON Schema and MCP listings read it. */
function described(value: z.ZodType, required: boolean, note: string | null | undefined): z.ZodType {
  const field = required ? value : value.optional();
  return note ? field.describe(note) : field;
}

/** GraphQL input types as zod, for one schema; input objects are built once and shared. */
export class InputSchemas {
  private readonly objects = new Map<string, z.ZodType>();
  private readonly selfReaching = new Map<string, boolean>();

  constructor(
    readonly schema: GraphQLSchema,
    private readonly scalars: Readonly<Record<string, z.ZodType>> = {},
  ) {}

  /** A value of `type`: null allowed unless it is non-null. */
  of(type: GraphQLInputType): z.ZodType {
    return type instanceof GraphQLNonNull ? this.present(type.ofType) : this.present(type).nullable();
  }

  /** What to call a value of `type` when nothing describes its place: said only of an open object. */
  noteOf(type: GraphQLInputType): string | undefined {
    const named = getNamedType(type);
    if (!(named instanceof GraphQLInputObjectType) || !this.reachesItself(named)) return undefined;
    const article = /^[AEIOU]/.test(named.name) ? "An" : "A";
    return `${article} ${named.name} object${named.description ? ` (${named.description})` : ""}; the server checks its fields.`;
  }

  private present(type: GraphQLInputType): z.ZodType {
    // A list takes a list (GraphQL would also take one bare item; a tool asks for the list).
    if (type instanceof GraphQLList) return z.array(this.of(type.ofType));
    if (type instanceof GraphQLEnumType) return z.enum(type.getValues().map((v) => v.name));
    if (type instanceof GraphQLInputObjectType) return this.object(type);
    if (type instanceof GraphQLScalarType) return this.scalar(type);
    throw new Error(`${String(type)} is not a nullable input type`);
  }

  private scalar(type: GraphQLScalarType): z.ZodType {
    switch (type.name) {
      // An ID is serialized as a string; that is what a tool sends.
      case "String":
      case "ID":
        return z.string();
      // GraphQL's Int is a signed 32-bit integer; its Float is finite, as zod's number is.
      case "Int":
        return z.int32();
      case "Float":
        return z.number();
      case "Boolean":
        return z.boolean();
      default:
        return this.scalars[type.name] ?? ANY_JSON;
    }
  }

  /**
   * An input object as a strict zod object (GraphQL refuses a field it does not declare). One that
   * contains itself (a filter with `and`/`or`) is any JSON object instead, described by its name
   * (`noteOf`): spelled out it would list every type it reaches in each tool list, and the server
   * checks it.
   */
  private object(type: GraphQLInputObjectType): z.ZodType {
    const known = this.objects.get(type.name);
    if (known) return known;
    let built: z.ZodType;
    if (this.reachesItself(type)) built = z.record(z.string(), z.unknown());
    else {
      const shape: Record<string, z.ZodType> = {};
      for (const field of Object.values(type.getFields())) {
        const required = field.type instanceof GraphQLNonNull && field.defaultValue === undefined;
        shape[field.name] = described(this.of(field.type), required, field.description ?? this.noteOf(field.type));
      }
      built = z.strictObject(shape);
    }
    this.objects.set(type.name, built);
    return built;
  }

  /** Whether an input object's fields lead back to it, through any number of input objects. */
  private reachesItself(type: GraphQLInputObjectType): boolean {
    const known = this.selfReaching.get(type.name);
    if (known !== undefined) return known;
    const seen = new Set<string>();
    const stack = [type];
    let found = false;
    while (!found && stack.length) {
      const at = stack.pop();
      for (const field of Object.values(at?.getFields() ?? {})) {
        const named = getNamedType(field.type);
        if (!(named instanceof GraphQLInputObjectType)) continue;
        if (named.name === type.name) found = true;
        else if (!seen.has(named.name)) {
          seen.add(named.name);
          stack.push(named);
        }
      }
    }
    this.selfReaching.set(type.name, found);
    return found;
  }
}
