#!/usr/bin/env node
// Derives the Linear twin's schema: the part of Linear's published schema that the operations
// the twin serves can reach. It captures the documents @linear/sdk (the installed version) sends
// for the supported methods, adds the same operations from the 88.3.0 documents file, walks them
// over Linear's schema (plus the few fields the newer SDK selects that 88.3.0 lacks, typed from
// the SDK's bundled types), and writes the reached types, with every argument Linear declares,
// to durable-objects/twins/linear/schema-sdl.ts. Run it again when the supported list changes:
//   node durable-objects/twins/linear/generate-schema.mjs
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as sdkModule from "@linear/sdk";
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLUnionType,
  Kind,
  TypeInfo,
  buildSchema,
  extendSchema,
  getNamedType,
  parse,
  print,
  validate,
  visit,
  visitWithTypeInfo,
} from "graphql";
const supported = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "supported.json"), "utf8"));
const { sdkClasses: SUPPORTED_SDK_CLASSES, sdkExtras: SDK_EXTRAS, extraFields: TWIN_EXTRA_FIELDS } = supported;

const root = path.resolve(import.meta.dirname, "../../..");
const fixtures = path.join(root, "test/fixtures/service-specs");
// SDK 98's projectCreate sends two arguments 88.3.0 lacks (MutationProjectCreateArgs in its types);
// an extension cannot add arguments, so they are spliced into the field's definition.
// documentDelete's ifParentDocumentId likewise (MutationDocumentDeleteArgs).
const sdl88 = readFileSync(path.join(fixtures, "linear-schema-88.3.0.graphql"), "utf8")
  .replace("  projectCreate(\n", "  projectCreate(\n    aiConversationId: String\n    projectDraftId: String\n")
  .replace("  documentDelete(\n", "  documentDelete(\n    ifParentDocumentId: String\n");
const linear = extendSchema(buildSchema(sdl88), parse(SDK_EXTRAS));
const documents88 = parse(readFileSync(path.join(fixtures, "linear-sdk-88.3.0-documents.graphql"), "utf8"));

/** The document an SDK class sends, captured by a request function that records and refuses. */
async function captureSdk(name) {
  // The class is looked up by the name the supported list gives (a build-time script, not a bundle).
  const Cls = Object.getOwnPropertyDescriptor(sdkModule, name)?.value;
  if (typeof Cls !== "function") throw new Error(`@linear/sdk has no ${name}`);
  let captured;
  const record = async (doc) => {
    captured = doc;
    throw new Error("captured");
  };
  await new Cls(record, "x", {}).fetch("x", {}).catch(() => undefined);
  if (!captured) throw new Error(`${name} sent nothing`);
  return parse(captured);
}

/** One operation of the 88.3.0 file with the fragments it uses, transitively. */
function operation88(opName) {
  const fragments = new Map(documents88.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const op = documents88.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === opName);
  if (!op) return undefined;
  const used = new Map();
  const walk = (node) =>
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (used.has(name)) return;
        const def = fragments.get(name);
        used.set(name, def);
        walk(def);
      },
    });
  walk(op);
  return { kind: Kind.DOCUMENT, definitions: [op, ...used.values()] };
}

const docs = [];
for (const name of SUPPORTED_SDK_CLASSES) {
  const doc = await captureSdk(name);
  const errors = validate(linear, doc);
  if (errors.length)
    throw new Error(`${name} does not validate against Linear 88.3.0 + SDK extras: ${errors.map((e) => e.message).join("; ")}`);
  docs.push(doc);
  const opName = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)?.name?.value;
  const old = opName && operation88(opName);
  if (old) docs.push(old);
}
// Fields hand-written queries commonly select, beyond what the SDK's fragments reach.
docs.push(parse(TWIN_EXTRA_FIELDS));

const fields = new Map(); // type name -> Set of field names
const named = new Set();
const touch = (type, field) => {
  if (!fields.has(type)) fields.set(type, new Set());
  if (field) fields.get(type).add(field);
};
function addNamed(type) {
  const t = getNamedType(type);
  if (named.has(t.name)) return;
  named.add(t.name);
  if (t instanceof GraphQLInputObjectType) for (const f of Object.values(t.getFields())) addNamed(f.type);
}
for (const doc of docs) {
  const info = new TypeInfo(linear);
  visit(
    doc,
    visitWithTypeInfo(info, {
      Field() {
        const parent = info.getParentType();
        const def = info.getFieldDef();
        if (!parent || !def || def.name.startsWith("__")) return;
        touch(parent.name, def.name);
        addNamed(def.type);
        for (const arg of def.args) addNamed(arg.type);
      },
      InlineFragment() {
        const t = info.getType();
        if (t) touch(getNamedType(t).name);
      },
      FragmentDefinition() {
        const t = info.getType();
        if (t) touch(getNamedType(t).name);
      },
      VariableDefinition(node) {
        addNamed(linear.getType(namedOf(node.type)));
      },
    }),
  );
}
function namedOf(typeNode) {
  return typeNode.kind === Kind.NAMED_TYPE ? typeNode.name.value : namedOf(typeNode.type);
}
// An object type's interfaces come with it, and each interface's fields must be on every implementation.
let changed = true;
while (changed) {
  changed = false;
  for (const [typeName, set] of [...fields]) {
    const t = linear.getType(typeName);
    if (!(t instanceof GraphQLObjectType || t instanceof GraphQLInterfaceType)) continue;
    for (const i of t.getInterfaces()) {
      if (!fields.has(i.name)) {
        // An interface comes whole: its fields are few, and each implementation must carry them.
        for (const f of Object.keys(i.getFields())) touch(i.name, f);
        changed = true;
      }
      for (const f of fields.get(i.name)) {
        if (!set.has(f)) {
          set.add(f);
          changed = true;
        }
      }
    }
    for (const f of set) {
      const def = t.getFields()[f];
      const target = getNamedType(def.type);
      addNamed(def.type);
      for (const arg of def.args) addNamed(arg.type);
      if ((target instanceof GraphQLObjectType || target instanceof GraphQLInterfaceType) && !fields.has(target.name)) {
        touch(target.name, "id" in target.getFields() ? "id" : Object.keys(target.getFields())[0]);
        changed = true;
      }
    }
  }
}

const desc = (d, indent = "") => (d ? `${indent}"""${d.replace(/"""/g, '\\"""').replace(/\s+/g, " ").trim()}"""\n` : "");
/** ` = <default>` as the published schema writes it (an enum value bare, a string quoted), or nothing. */
const defaultOf = (f) => (f.astNode?.defaultValue ? ` = ${print(f.astNode.defaultValue)}` : "");
const argList = (args) => (args.length ? `(${args.map((a) => `${a.name}: ${a.type}${defaultOf(a)}`).join(", ")})` : "");
const out = [];
const unions = [];
for (const name of [...new Set([...fields.keys(), ...named])].sort()) {
  const t = linear.getType(name);
  if (!t || name.startsWith("__")) continue;
  if (t instanceof GraphQLScalarType) {
    if (!["String", "Int", "Float", "Boolean", "ID"].includes(name)) out.push(`${desc(t.description)}scalar ${name}`);
  } else if (t instanceof GraphQLEnumType) {
    out.push(
      `${desc(t.description)}enum ${name} {\n${t
        .getValues()
        .map((v) => `  ${v.name}`)
        .join("\n")}\n}`,
    );
  } else if (t instanceof GraphQLInputObjectType) {
    out.push(
      `input ${name} {\n${Object.values(t.getFields())
        .map((f) => `  ${f.name}: ${f.type}${defaultOf(f)}`)
        .join("\n")}\n}`,
    );
  } else if (t instanceof GraphQLUnionType) {
    unions.push(t);
  } else if (t instanceof GraphQLObjectType || t instanceof GraphQLInterfaceType) {
    const set = fields.get(name);
    if (!set || set.size === 0) continue;
    const all = t.getFields();
    const kw = t instanceof GraphQLObjectType ? "type" : "interface";
    const impl = t.getInterfaces().filter((i) => fields.has(i.name));
    const body = Object.values(all)
      .filter((f) => set.has(f.name))
      .map((f) => `  ${f.name}${argList(f.args)}: ${f.type}`)
      .join("\n");
    out.push(`${desc(t.description)}${kw} ${name}${impl.length ? ` implements ${impl.map((i) => i.name).join(" & ")}` : ""} {\n${body}\n}`);
  }
}
for (const u of unions) {
  const members = u.getTypes().filter((m) => fields.has(m.name));
  if (members.length) out.push(`union ${u.name} = ${members.map((m) => m.name).join(" | ")}`);
}
const sdl = out.join("\n\n");
const twin = buildSchema(sdl);
for (const doc of docs) {
  const errors = validate(twin, doc);
  if (errors.length) throw new Error(`derived schema rejects ${print(doc).slice(0, 80)}: ${errors[0].message}`);
}
const rootNames = (t) => Object.keys(t.getFields()).sort();
// Fields Linear has on the object types the twin serves but the twin does not declare: selecting
// one answers 501 (not implemented) instead of a validation error claiming Linear lacks it.
const missing = {};
for (const t of Object.values(twin.getTypeMap())) {
  if (t.name.startsWith("__") || t.name === "Query" || t.name === "Mutation") continue;
  if (!(t instanceof GraphQLObjectType || t instanceof GraphQLInterfaceType)) continue;
  const theirs = linear.getType(t.name);
  if (!theirs) continue;
  const absent = Object.keys(theirs.getFields())
    .filter((f) => !(f in t.getFields()))
    .sort();
  if (absent.length) missing[t.name] = absent;
}
const file = `// Generated by durable-objects/twins/linear/generate-schema.mjs from Linear's published schema (@linear/sdk@88.3.0, MIT)
// plus the fields @linear/sdk 98 selects that it lacks. Do not edit by hand: change
// supported.mjs and run the script. Kept as strings: the schema is built on first use, not here.

/** The twin's schema: every type and field it serves, with Linear's own names and types. */
export const LINEAR_TWIN_SDL = ${JSON.stringify(sdl)};

/** Every root field Linear has, so one the twin lacks answers 501 instead of a validation error. */
export const LINEAR_QUERY_FIELDS: readonly string[] = ${JSON.stringify(rootNames(linear.getQueryType()))};
export const LINEAR_MUTATION_FIELDS: readonly string[] = ${JSON.stringify(rootNames(linear.getMutationType()))};

/** Per type the twin serves, the fields Linear has that the twin does not: selecting one answers 501. */
export const LINEAR_UNSERVED_FIELDS: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(missing)};
`;
writeFileSync(path.join(root, "durable-objects/twins/linear/schema-sdl.ts"), file);
console.log(
  `types: ${out.length}, sdl: ${sdl.length} chars, query fields: ${rootNames(twin.getQueryType()).length}, mutation fields: ${rootNames(twin.getMutationType()).length}`,
);
