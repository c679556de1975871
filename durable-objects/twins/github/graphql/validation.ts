// graphql-js validation as GitHub's server applies it. One difference: GitHub accepts fields of one
// response name on two different object types even where their leaf types differ, as
// `... on Issue { state } ... on PullRequest { state }` (IssueState! and PullRequestState!), which
// the `gh` tool (2.23, `gh issue view`) sends; graphql-js's OverlappingFieldsCanBeMerged refuses it.
// Such a pair can never both answer for one object, so the twin drops only that conflict; every
// other one (same type, differing arguments or aliases) is still refused.
import {
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type ASTNode,
  OverlappingFieldsCanBeMergedRule,
  TypeInfo,
  isObjectType,
  specifiedRules,
  validate,
  visit,
  visitWithTypeInfo,
} from "graphql";

const OTHER_RULES = specifiedRules.filter((r) => r !== OverlappingFieldsCanBeMergedRule);
const TYPE_CONFLICT = /^Fields "[^"]+" conflict because they return conflicting types /;

export function validateAsGithub(schema: GraphQLSchema, doc: DocumentNode): readonly GraphQLError[] {
  const errors = [...validate(schema, doc, OTHER_RULES)];
  if (errors.length) return errors;
  const overlaps = validate(schema, doc, [OverlappingFieldsCanBeMergedRule]);
  if (!overlaps.length) return errors;
  const parents = new Map<ASTNode, string>();
  const info = new TypeInfo(schema);
  visit(
    doc,
    visitWithTypeInfo(info, {
      Field(node) {
        const parent = info.getParentType();
        if (parent && isObjectType(parent)) parents.set(node, parent.name);
      },
    }),
  );
  return overlaps.filter((e) => {
    if (!TYPE_CONFLICT.test(e.message) || e.nodes?.length !== 2) return true;
    const [a, b] = e.nodes.map((n) => parents.get(n));
    return !(a && b && a !== b);
  });
}
