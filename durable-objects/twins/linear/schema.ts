// The twin's executable schema, built from its SDL on first use (once per isolate, never at
// import), and the field resolver graphql-js runs: a modeled field is computed from the world;
// a field the twin does not model answers the empty value of its type, because the SDK's model
// constructors read every field its fragments select.
import {
  GraphQLEnumType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  buildSchema,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLTypeResolver,
} from "graphql";
import type { Gql, Row } from "./context";
import { MUTATION_RESOLVERS } from "./resolvers/mutation";
import { QUERY_RESOLVERS } from "./resolvers/query";
import { TYPE_RESOLVERS } from "./resolvers/types";
import { LINEAR_TWIN_SDL } from "./schema-sdl";

let built: GraphQLSchema | undefined;

export function linearSchema(): GraphQLSchema {
  built ??= buildSchema(LINEAR_TWIN_SDL);
  return built;
}

const EPOCH = "2026-01-01T00:00:00.000Z";

/** The empty value of a type: null when nullable, else [], "", 0, false, {}, or the first enum value. */
function emptyOf(type: GraphQLOutputType, src: unknown): unknown {
  if (!(type instanceof GraphQLNonNull)) return null;
  const inner = type.ofType;
  if (inner instanceof GraphQLList) return [];
  if (inner instanceof GraphQLEnumType) return inner.getValues()[0]?.value ?? null;
  if (inner instanceof GraphQLObjectType) return {};
  if (inner instanceof GraphQLScalarType) {
    switch (inner.name) {
      case "Int":
      case "Float":
        return 0;
      case "Boolean":
        return false;
      case "DateTime": {
        const created =
          typeof src === "object" && src !== null && "created_at" in src ? (src as { created_at: unknown }).created_at : undefined;
        return typeof created === "string" ? created : EPOCH;
      }
      case "TimelessDate":
        return EPOCH.slice(0, 10);
      case "JSON":
      case "JSONObject":
        return {};
      default:
        return "";
    }
  }
  return null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const fieldResolver: GraphQLFieldResolver<unknown, Gql> = (src, args, gql, info) => {
  const parent = info.parentType.name;
  const root = parent === "Query" ? QUERY_RESOLVERS : parent === "Mutation" ? MUTATION_RESOLVERS : TYPE_RESOLVERS[parent];
  const own = root?.[info.fieldName];
  if (own) return own((isRecord(src) ? src : {}) as Row, args, gql);
  if (isRecord(src) && info.fieldName in src && src[info.fieldName] !== undefined) return src[info.fieldName];
  return emptyOf(info.returnType, src);
};

/** Interfaces and unions: an object says what it is through `__typename`. */
export const typeResolver: GraphQLTypeResolver<unknown, Gql> = (value) =>
  isRecord(value) && typeof value.__typename === "string" ? value.__typename : undefined;
