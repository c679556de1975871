// The twin's schema against Linear's: every type and field it declares exists in Linear's
// published schema (@linear/sdk@88.3.0) with the same type, or, for the few fields the newer SDK
// selects that 88.3.0 lacks, in the SDK's own bundled types; and every operation the supported
// SDK methods send (88.3.0's documents and the installed SDK's) validates against the twin.
import * as sdk from "@linear/sdk";
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLUnionType,
  Kind,
  buildSchema,
  parse,
  print,
  validate,
  visit,
  type ConstValueNode,
  type DocumentNode,
  type GraphQLField,
  type GraphQLNamedType,
} from "graphql";
import { describe, expect, it } from "vitest";
import supported from "../../../durable-objects/twins/linear/supported.json";
import { linearSchema } from "../../../durable-objects/twins/linear/schema";
import sdkTypes from "../../../node_modules/@linear/sdk/dist/index-D2pH4Pk9.d.mts?raw";
import linearSdl from "../../fixtures/service-specs/linear-schema-88.3.0.graphql?raw";
import documentsSdl from "../../fixtures/service-specs/linear-sdk-88.3.0-documents.graphql?raw";

const linear = buildSchema(linearSdl);
const twin = linearSchema();
const documents88 = parse(documentsSdl);

/** The fields @linear/sdk 98 selects that 88.3.0 lacks, per the issue and the SDK's `notifications`
 * document; the twin declares exactly these beyond 88.3.0 (plus the SDK-only types below, whole). */
const SDK98_EXTRAS = [
  "Document.owner",
  "Favorite.liveFolderDefinition",
  "Favorite.liveFolderPreset",
  "Favorite.workflowDefinition",
  "IssueLabel.groupType",
  "NotificationSubscription.includeSubInitiativeUpdates",
  "Organization.defaultHomeViewTargetId",
  "Organization.suggestedBranchNameEnabled",
  "Project.resourceCount",
  "ProjectUpdate.shortSummary",
  "Team.viewerCanJoin",
  "Team.viewerCanLeave",
  "Team.viewerMembership",
  // From the custom views' and templates' documents (CustomViewsQuery's ViewPreferencesValues, Template).
  "Template.content",
  "ViewPreferencesValues.automationRunHistoryShowDuration",
  "ViewPreferencesValues.automationRunHistoryShowInitiativeIdentifier",
  "ViewPreferencesValues.automationRunHistoryShowIssueIdentifier",
  "ViewPreferencesValues.automationRunHistoryShowProjectIdentifier",
  "ViewPreferencesValues.automationShowDisabled",
  "ViewPreferencesValues.documentFieldCreator",
  "ViewPreferencesValues.documentFieldDateCreated",
  "ViewPreferencesValues.documentFieldDateUpdated",
  "ViewPreferencesValues.documentFieldOwner",
  "ViewPreferencesValues.documentFieldParent",
  "ViewPreferencesValues.fieldUserPresence",
  "ViewPreferencesValues.initiativeFieldId",
  "ViewPreferencesValues.projectFieldId",
  "ViewPreferencesValues.reviewFieldOpenedAt",
  "ViewPreferencesValues.reviewFieldQuickToReview",
  "ViewPreferencesValues.reviewFieldReviewers",
  "ViewPreferencesValues.reviewFieldSla",
  "ViewPreferencesValues.reviewFieldStatusDetails",
  "ViewPreferencesValues.showOnlyLeadTeamProjects",
  "WorkflowDefinition.activationMode",
  "WorkflowDefinition.editAccess",
  "WorkflowDefinition.intelligence",
  "WorkflowDefinition.restrictEditing",
];
/** Enums and object types 88.3.0 lacks that SDK 98's documents use; each is checked against the SDK's declaration. */
const SDK98_ENUMS = ["LabelGroupType", "WorkflowActivationMode", "WorkflowDefinitionEditAccess", "WorkflowIntelligence"];
const SDK98_TYPES = ["WorkspaceAnnouncementNotification"];

/** An enum's values as SDK 98 declares them: `declare enum X {\n  A = "a",\n}`. */
function sdkEnumValues(name: string): string[] {
  const start = sdkTypes.indexOf(`declare enum ${name} {`);
  if (start < 0) return [];
  const body = sdkTypes.slice(start, sdkTypes.indexOf("\n}", start));
  return [...body.matchAll(/= "(\w+)"/g)].map((m) => m[1] ?? "");
}

/** The interfaces SDK 98's type alias intersects: `type X = Entity & Node & Notification & {`. */
function sdkInterfaces(name: string): string[] | undefined {
  const m = new RegExp(`\ntype ${name} = ((?:\\w+ & )*)\\{`).exec(sdkTypes);
  return m?.[1]?.split(" & ").filter(Boolean);
}

/** A field's type as SDK 98's generated TypeScript declares it: `name: Scalars["Boolean"]` or `name?: Maybe<TeamMembership>`. */
function sdkFieldType(typeName: string, field: string): string | undefined {
  const start = sdkTypes.indexOf(`\ntype ${typeName} = `);
  if (start < 0) return undefined;
  const body = sdkTypes.slice(start, sdkTypes.indexOf("\n};", start));
  const m = new RegExp(`\\n  ${field}(\\??): (.+);`).exec(body);
  if (!m) return undefined;
  const nullable = m[1] === "?";
  const base = /Scalars\["(\w+)"\]/.exec(m[2])?.[1] ?? /Maybe<(\w+)>/.exec(m[2])?.[1] ?? m[2];
  return nullable ? base : `${base}!`;
}

/** A field's or argument's default as the SDL writes it, or "" for none. */
const defaultOf = (f: { astNode?: { defaultValue?: ConstValueNode } | null } | undefined): string =>
  f?.astNode?.defaultValue ? print(f.astNode.defaultValue) : "";

const builtIn = (t: GraphQLNamedType) => t.name.startsWith("__") || ["String", "Int", "Float", "Boolean", "ID"].includes(t.name);

describe("linear twin schema: conformance with Linear's", () => {
  it("declares only types Linear has, of the same kind", () => {
    const strangers: string[] = [];
    for (const t of Object.values(twin.getTypeMap())) {
      if (builtIn(t)) continue;
      const theirs = linear.getType(t.name);
      if (SDK98_ENUMS.includes(t.name)) {
        // Not in 88.3.0: the values are SDK 98's (`declare enum LabelGroupType { MultiSelect = "multiSelect", … }`).
        expect(t).toBeInstanceOf(GraphQLEnumType);
        expect((t as GraphQLEnumType).getValues().map((v) => v.name)).toEqual(sdkEnumValues(t.name));
        expect(sdkEnumValues(t.name).length).toBeGreaterThan(1);
        continue;
      }
      if (SDK98_TYPES.includes(t.name)) {
        // Not in 88.3.0: an object type of SDK 98's, implementing the interfaces its type alias intersects.
        expect(t).toBeInstanceOf(GraphQLObjectType);
        expect((t as GraphQLObjectType).getInterfaces().map((i) => i.name)).toEqual(sdkInterfaces(t.name));
        continue;
      }
      if (!theirs || theirs.constructor !== t.constructor) strangers.push(t.name);
    }
    expect(strangers).toEqual([]);
  });

  it("declares every field with Linear's type and arguments, the SDK 98 extras with the SDK's types", () => {
    const mismatches: string[] = [];
    const extras: string[] = [];
    for (const t of Object.values(twin.getTypeMap())) {
      if (builtIn(t) || SDK98_ENUMS.includes(t.name)) continue;
      const theirs = linear.getType(t.name);
      if (t instanceof GraphQLObjectType || t instanceof GraphQLInterfaceType) {
        const fields = theirs instanceof GraphQLObjectType || theirs instanceof GraphQLInterfaceType ? theirs.getFields() : {};
        for (const f of Object.values(t.getFields()) as GraphQLField<unknown, unknown>[]) {
          const other = fields[f.name];
          if (!other) {
            if (!SDK98_TYPES.includes(t.name)) extras.push(`${t.name}.${f.name}`);
            if (sdkFieldType(t.name, f.name) !== String(f.type))
              mismatches.push(`${t.name}.${f.name}: ${String(f.type)} vs SDK ${sdkFieldType(t.name, f.name)}`);
            continue;
          }
          if (String(other.type) !== String(f.type)) mismatches.push(`${t.name}.${f.name}: ${String(f.type)} vs ${String(other.type)}`);
          for (const a of f.args) {
            const oa = other.args.find((x) => x.name === a.name);
            if (oa && String(oa.type) === String(a.type) && defaultOf(oa) === defaultOf(a)) continue;
            // projectCreate's two newer arguments and documentDelete's ifParentDocumentId come from
            // SDK 98's MutationProjectCreateArgs and MutationDocumentDeleteArgs.
            const argsType = { projectCreate: "MutationProjectCreateArgs", documentDelete: "MutationDocumentDeleteArgs" }[f.name];
            const sdkArg =
              argsType !== undefined &&
              new RegExp(`type ${argsType} = \\{[^}]*\\n  ${a.name}\\?: InputMaybe<Scalars\\["String"\\]>;`).test(sdkTypes);
            if (!(t.name === "Mutation" && sdkArg && String(a.type) === "String")) mismatches.push(`${t.name}.${f.name}(${a.name})`);
          }
        }
      } else if (t instanceof GraphQLInputObjectType) {
        const fields = (theirs as GraphQLInputObjectType).getFields();
        for (const f of Object.values(t.getFields())) {
          if (String(fields[f.name]?.type) !== String(f.type)) mismatches.push(`${t.name}.${f.name}`);
          // Defaults matter: graphql-js fills them in (`nulls: PaginationNulls = last`) before a resolver runs.
          if (defaultOf(fields[f.name]) !== defaultOf(f)) mismatches.push(`${t.name}.${f.name} = ${defaultOf(f)}`);
        }
      } else if (t instanceof GraphQLEnumType) {
        const values = (theirs as GraphQLEnumType).getValues().map((v) => v.name);
        for (const v of t.getValues()) if (!values.includes(v.name)) mismatches.push(`${t.name}.${v.name}`);
      } else if (t instanceof GraphQLUnionType) {
        const members = (theirs as GraphQLUnionType).getTypes().map((m) => m.name);
        for (const m of t.getTypes()) if (!members.includes(m.name)) mismatches.push(`${t.name} | ${m.name}`);
      } else if (!(t instanceof GraphQLScalarType)) mismatches.push(String(t));
    }
    expect(mismatches).toEqual([]);
    expect(extras.sort()).toEqual(SDK98_EXTRAS);
  });

  it("declares each SDK-only object type with the fields of the twin's Notification interface, plus its own", () => {
    const t = twin.getType("WorkspaceAnnouncementNotification");
    expect(t).toBeInstanceOf(GraphQLObjectType);
    const fields = Object.keys((t as GraphQLObjectType).getFields());
    const notification = twin.getType("Notification");
    expect(notification).toBeInstanceOf(GraphQLInterfaceType);
    for (const f of Object.keys((notification as GraphQLInterfaceType).getFields())) expect(fields).toContain(f);
    expect(fields).toContain("workspaceAnnouncementId");
    expect(sdkFieldType("WorkspaceAnnouncementNotification", "workspaceAnnouncementId")).toBe("String!");
  });

  it("leaves the SDK 98 extras null or empty-free as the SDK types say: viewerMembership nullable, the flags non-null", () => {
    expect(sdkFieldType("Team", "viewerMembership")).toBe("TeamMembership");
    expect(sdkFieldType("Team", "viewerCanJoin")).toBe("Boolean!");
    expect(sdkFieldType("Organization", "suggestedBranchNameEnabled")).toBe("Boolean!");
    expect(sdkFieldType("Project", "resourceCount")).toBe("Int!");
  });
});

/** The document an SDK method class sends, captured by a request function that records and refuses. */
async function capture(name: string): Promise<DocumentNode> {
  const Cls = (
    sdk as unknown as Record<
      string,
      new (
        request: (doc: string) => Promise<never>,
        ...rest: unknown[]
      ) => { fetch(...args: unknown[]): Promise<unknown> }
    >
  )[name];
  let captured = "";
  const record = async (doc: string): Promise<never> => {
    captured = doc;
    throw new Error("captured");
  };
  await new Cls(record, "x", {}).fetch("x", {}).catch(() => undefined);
  return parse(captured);
}

function operation88(opName: string): DocumentNode | undefined {
  const op = documents88.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === opName);
  if (!op) return undefined;
  const fragments = new Map(
    documents88.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const used = new Map<string, (typeof documents88.definitions)[number]>();
  const walk = (node: Parameters<typeof visit>[0]) =>
    visit(node, {
      FragmentSpread(spread) {
        const def = fragments.get(spread.name.value);
        if (!def || used.has(spread.name.value)) return;
        used.set(spread.name.value, def);
        walk(def);
      },
    });
  walk(op);
  return { kind: Kind.DOCUMENT, definitions: [op, ...used.values()] };
}

describe("linear twin schema: every operation the supported SDK methods send validates", () => {
  it(`validates the ${supported.sdkClasses.length} operations @linear/sdk 98 sends, and the same operations from 88.3.0's documents`, async () => {
    const failures: string[] = [];
    let from88 = 0;
    for (const name of supported.sdkClasses) {
      const doc = await capture(name);
      for (const e of validate(twin, doc)) failures.push(`SDK 98 ${name}: ${e.message}`);
      const opName = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)?.name?.value ?? "";
      const old = operation88(opName);
      if (!old) continue;
      from88++;
      for (const e of validate(twin, old)) failures.push(`88.3.0 ${opName}: ${e.message}`);
    }
    expect(failures).toEqual([]);
    expect(from88).toBeGreaterThan(60);
  });

  it("the same 88.3.0 operations also validate against Linear's own schema (the fixture is sound)", () => {
    const doc = operation88("issue");
    expect(doc && validate(linear, doc)).toEqual([]);
  });
});
