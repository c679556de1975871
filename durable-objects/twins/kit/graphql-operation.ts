// Which operation of a GraphQL document a request runs, and the root fields it selects: what a
// GraphQL twin tapes as the call's operation and how it tells reads from writes.
import { type DocumentNode, type FragmentDefinitionNode, Kind, type OperationDefinitionNode, type SelectionSetNode } from "graphql";

/** The operation named by `operationName`, or the document's only one (GraphQL's own rule). */
export function pickOperation(doc: DocumentNode, name: string | undefined): OperationDefinitionNode | undefined {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return name ? ops.find((o) => o.name?.value === name) : ops.length === 1 ? ops[0] : undefined;
}

/** The root fields an operation selects, looking through fragments spread at the root, in order and once each. */
export function rootFields(doc: DocumentNode, op: OperationDefinitionNode): string[] {
  const fragments = new Map(
    doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const out: string[] = [];
  const walk = (set: SelectionSetNode, seen: Set<string>) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (!s.name.value.startsWith("__") && !out.includes(s.name.value)) out.push(s.name.value);
      } else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet, seen);
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        const f = fragments.get(s.name.value);
        if (f) walk(f.selectionSet, seen);
      }
    }
  };
  walk(op.selectionSet, new Set());
  return out;
}
