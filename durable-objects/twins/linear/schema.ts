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
import { BATCH_MUTATIONS } from "./resolvers/batch";
import { CYCLE_MUTATIONS } from "./resolvers/cycles";
import { MUTATION_RESOLVERS as CORE_MUTATIONS } from "./resolvers/mutation";
import { QUERY_RESOLVERS as CORE_QUERIES } from "./resolvers/query";
import { ADMIN_MUTATIONS, ADMIN_QUERIES } from "./resolvers/admin";
import { TEAM_MUTATIONS } from "./resolvers/teams";
import { FAVORITE_MUTATIONS, FAVORITE_QUERIES, FAVORITE_TYPE } from "./resolvers/favorites";
import { COMMENT_RESOLUTION_FIELDS, COMMENT_THREAD_MUTATIONS } from "./resolvers/comment-threads";
import { NOTIFICATION_MUTATIONS } from "./resolvers/notification-writes";
import { DOCUMENT_MUTATIONS, DOCUMENT_QUERIES, DOCUMENT_TYPE, documentList } from "./resolvers/documents";
import {
  MILESTONE_TYPE,
  PROJECT_EXTRA_FIELDS,
  PROJECT_EXTRA_MUTATIONS,
  PROJECT_EXTRA_QUERIES,
  PROJECT_UPDATE_TYPE,
} from "./resolvers/projects-extra";
import { ISSUE_HISTORY_RESOLVERS, issueHistory } from "./resolvers/history";
import { INITIATIVE_MUTATIONS, INITIATIVE_QUERIES, INITIATIVE_TO_PROJECT_TYPE, INITIATIVE_TYPE } from "./resolvers/initiatives";
import { CUSTOM_VIEW_MUTATIONS, CUSTOM_VIEW_QUERIES, CUSTOM_VIEW_TYPE } from "./resolvers/custom-views";
import { TEMPLATE_MUTATIONS, TEMPLATE_QUERIES, TEMPLATE_TYPE } from "./resolvers/templates";
import { REMINDER_MUTATIONS } from "./resolvers/reminders";
import { TYPE_RESOLVERS as CORE_TYPES } from "./resolvers/types";
import { LINEAR_TWIN_SDL } from "./schema-sdl";

/** Every root query field the twin serves, from the files of its areas. */
export const QUERY_RESOLVERS: Record<string, (typeof CORE_QUERIES)[string]> = {
  ...CORE_QUERIES,
  ...DOCUMENT_QUERIES,
  ...PROJECT_EXTRA_QUERIES,
  ...ADMIN_QUERIES,
  ...FAVORITE_QUERIES,
  ...INITIATIVE_QUERIES,
  ...CUSTOM_VIEW_QUERIES,
  ...TEMPLATE_QUERIES,
};

/** Every mutation the twin serves, from the files of its areas. */
export const MUTATION_RESOLVERS: Record<string, (typeof CORE_MUTATIONS)[string]> = {
  ...CORE_MUTATIONS,
  ...CYCLE_MUTATIONS,
  ...BATCH_MUTATIONS,
  ...DOCUMENT_MUTATIONS,
  ...PROJECT_EXTRA_MUTATIONS,
  ...COMMENT_THREAD_MUTATIONS,
  ...NOTIFICATION_MUTATIONS,
  ...ADMIN_MUTATIONS,
  ...TEAM_MUTATIONS,
  ...FAVORITE_MUTATIONS,
  ...INITIATIVE_MUTATIONS,
  ...CUSTOM_VIEW_MUTATIONS,
  // After the core mutations: issueCreate with `templateId` applies the template first.
  ...TEMPLATE_MUTATIONS,
  ...REMINDER_MUTATIONS,
};

/** Field resolvers per type, with the other areas' types and fields. */
const TYPE_RESOLVERS: typeof CORE_TYPES = {
  ...CORE_TYPES,
  Issue: {
    ...CORE_TYPES.Issue,
    history: issueHistory,
    projectMilestone: (r, _a, gql) =>
      gql.byId("ProjectMilestone", typeof r.project_milestone_id === "string" ? r.project_milestone_id : null) ?? null,
    lastAppliedTemplate: (r, _a, gql) =>
      gql.byId("Template", typeof r.last_applied_template_id === "string" ? r.last_applied_template_id : null) ?? null,
  },
  IssueHistory: ISSUE_HISTORY_RESOLVERS,
  Comment: { ...CORE_TYPES.Comment, ...COMMENT_RESOLUTION_FIELDS },
  IssueNotification: { ...CORE_TYPES.IssueNotification, snoozedUntilAt: (r) => r.snoozed_until_at ?? null },
  Document: DOCUMENT_TYPE,
  Favorite: FAVORITE_TYPE,
  ProjectMilestone: MILESTONE_TYPE,
  ProjectUpdate: PROJECT_UPDATE_TYPE,
  Initiative: INITIATIVE_TYPE,
  InitiativeToProject: INITIATIVE_TO_PROJECT_TYPE,
  CustomView: CUSTOM_VIEW_TYPE,
  Template: TEMPLATE_TYPE,
  Project: {
    ...CORE_TYPES.Project,
    ...PROJECT_EXTRA_FIELDS,
    documents: (r, args, gql) => documentList(gql, args, ["x.project_id = ?"], [r.id]),
  },
};

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

/**
 * Characters of text the running execution may still answer. Execution is synchronous, so one
 * budget at a time is the running query's. Past it every field resolves to its empty value (no
 * list grows, no row is read for it) and the caller refuses the call (graphql.ts).
 */
let textBudget: { left: number; over: boolean } | undefined;

export function withTextBudget<T>(chars: number, run: () => T): { result: T; over: boolean } {
  const outer = textBudget;
  const budget = { left: chars, over: false };
  textBudget = budget;
  try {
    return { result: run(), over: budget.over };
  } finally {
    textBudget = outer;
  }
}

function resolveField(src: unknown, args: Record<string, unknown>, gql: Gql, info: Parameters<GraphQLFieldResolver<unknown, Gql>>[3]) {
  const parent = info.parentType.name;
  const root = parent === "Query" ? QUERY_RESOLVERS : parent === "Mutation" ? MUTATION_RESOLVERS : TYPE_RESOLVERS[parent];
  const own = root?.[info.fieldName];
  if (own) return own((isRecord(src) ? src : {}) as Row, args, gql);
  if (isRecord(src) && info.fieldName in src && src[info.fieldName] !== undefined) return src[info.fieldName];
  return emptyOf(info.returnType, src);
}

export const fieldResolver: GraphQLFieldResolver<unknown, Gql> = (src, args, gql, info) => {
  const budget = textBudget;
  if (budget?.over) return emptyOf(info.returnType, src);
  const value = resolveField(src, args, gql, info);
  if (budget && typeof value === "string") {
    budget.left -= value.length;
    budget.over = budget.left < 0;
  }
  return value;
};

/** Interfaces and unions: an object says what it is through `__typename`. */
export const typeResolver: GraphQLTypeResolver<unknown, Gql> = (value) =>
  isRecord(value) && typeof value.__typename === "string" ? value.__typename : undefined;
