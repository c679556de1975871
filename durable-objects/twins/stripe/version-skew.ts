// Node only. The Stripe answers are validated against the newest spec3.json obtainable here, for
// API version 2024-04-10, while the twin serves the version stripe-node 23.1.0 pins (2026-10-28).
// Between the two Stripe added fields (an invoice's `parent`, a customer's `customer_account`) and
// removed others (an invoice's `paid`, a subscription's `current_period_end`, moved to its items:
// docs.stripe.com/changelog/basil). stripe-node's type declarations are generated from the newer
// spec3.json, so they say which fields the served version has: a field the old description lacks
// but the new types declare is the newer API, as is one the old description requires and the new
// types no longer declare. Any other difference still fails unless fidelity.ts declares it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Difference } from "../kit/fidelity/conformance";

/** An interface of stripe-node's declarations: its fields and each field's type text. */
type Fields = Map<string, string>;

const OPEN = /^(\s*)(?:export )?(?:declare )?(interface|namespace) (\w+)(?:<[^>]*>)?(?: extends [^{]+)? \{$/;
const MEMBER = /^\s*(?:readonly )?(\w+)\??: (.+?);?$/;
const ALIAS = /^\s*(?:export )?(?:declare )?type (\w+) = (.+);$/;

/** stripe-node's declarations: interfaces with their fields, and type aliases (enums) with their text. */
export interface Declarations {
  interfaces: Map<string, Fields>;
  aliases: Map<string, string>;
}
const emptyDeclarations = (): Declarations => ({ interfaces: new Map(), aliases: new Map() });

/**
 * Every interface and type alias in one declaration file, by qualified name (`Invoice.AutomaticTax`); `prefix` is
 * the namespace of the file's folder (`Checkout` for Checkout/Sessions.d.ts, as `Stripe.Checkout.Session`).
 */
export function declarationsOf(source: string, into: Declarations = emptyDeclarations(), prefix: readonly string[] = []): Declarations {
  const stack: { kind: string; name: string; indent: number }[] = [];
  const qualified = (name?: string) => [...prefix, ...stack.map((s) => s.name), ...(name ? [name] : [])].join(".");
  for (const line of source.split("\n")) {
    const alias = ALIAS.exec(line);
    if (alias && (stack.at(-1)?.kind ?? "namespace") === "namespace") {
      into.aliases.set(qualified(alias[1]), alias[2]);
      continue;
    }
    const open = OPEN.exec(line);
    if (open) {
      stack.push({ kind: open[2], name: open[3], indent: open[1].length });
      const name = qualified();
      // Declarations merge: a second `interface X` adds to the first.
      if (open[2] === "interface" && !into.interfaces.has(name)) into.interfaces.set(name, new Map());
      continue;
    }
    const top = stack.at(-1);
    if (!top) continue;
    const indent = line.length - line.trimStart().length;
    if (line.trim() === "}" && indent === top.indent) {
      stack.pop();
      continue;
    }
    const member = MEMBER.exec(line);
    if (top.kind === "interface" && member && indent === top.indent + 4) into.interfaces.get(qualified())?.set(member[1], member[2]);
  }
  return into;
}

/** stripe-node's object types: its declarations, and the interfaces each `object` value names. */
export interface ServedTypes extends Declarations {
  byObject: Map<string, string[]>;
}

export function servedTypes(root: string): ServedTypes {
  const dir = path.join(root, "node_modules/stripe/cjs");
  const declarations = emptyDeclarations();
  const walk = (d: string, prefix: readonly string[]) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      // resources/Checkout/Sessions.d.ts declares Stripe.Checkout.Session.
      if (entry.isDirectory()) walk(full, d === dir ? [] : [...prefix, entry.name]);
      else if (entry.name.endsWith(".d.ts")) declarationsOf(readFileSync(full, "utf8"), declarations, prefix);
    }
  };
  walk(dir, []);
  const byObject = new Map<string, string[]>();
  for (const [name, fields] of declarations.interfaces) {
    const object = /^'([\w.]+)'$/.exec(fields.get("object") ?? "")?.[1];
    if (object) byObject.set(object, [...(byObject.get(object) ?? []), name]);
  }
  return { ...declarations, byObject };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The interfaces a field's type text names (`Array<Invoice.TotalTax> | null` → `Invoice.TotalTax`), qualified within `scope`. */
function referenced(types: ServedTypes, typeText: string, scope: string): string[] {
  const names = typeText.match(/[A-Z]\w*(?:\.\w+)*/g) ?? [];
  const out: string[] = [];
  for (const name of names) {
    const bare = name.replace(/^Stripe\./, "");
    // A nested name is written relative to the enclosing namespaces: try each from the innermost out.
    const parts = scope.split(".");
    for (let i = parts.length; i >= 0; i--) {
      const candidate = [...parts.slice(0, i), bare].join(".");
      if (types.interfaces.has(candidate)) {
        out.push(candidate);
        break;
      }
    }
  }
  return out;
}

/**
 * The interfaces that describe the value at `segments` of an answer, and the field named by the
 * last segment. A value carrying `object` is looked up by it; a plain sub-object by the type of
 * the field that holds it. `*` steps into a list (its first element stands for all).
 */
function interfacesAt(types: ServedTypes, body: unknown, segments: readonly string[]): string[] {
  let value: unknown = body;
  let current: string[] = [];
  for (const segment of segments) {
    if (segment === "*") {
      value = Array.isArray(value) ? value[0] : undefined;
      continue;
    }
    if (isRecord(value) && typeof value.object === "string") current = types.byObject.get(value.object) ?? [];
    const next = current.flatMap((name) => {
      const typeText = types.interfaces.get(name)?.get(segment);
      return typeText ? referenced(types, typeText, name) : [];
    });
    current = next;
    value = isRecord(value) ? value[segment] : undefined;
  }
  if (isRecord(value) && typeof value.object === "string") return types.byObject.get(value.object) ?? [];
  return current;
}

/** The value at a difference's path (`*`: the first element of a list). */
function valueAt(body: unknown, segments: readonly string[]): unknown {
  let value = body;
  for (const segment of segments)
    value = segment === "*" ? (Array.isArray(value) ? value[0] : undefined) : isRecord(value) ? value[segment] : undefined;
  return value;
}

/** The string literals a field's type allows, following one alias (`Formula` → `'count' | 'last' | 'sum'`). */
function enumValues(types: ServedTypes, typeText: string, scope: string): string[] {
  const literals = (text: string) => [...text.matchAll(/'([^']*)'/g)].map((m) => m[1]);
  const direct = literals(typeText);
  if (direct.length) return direct;
  const alias = /^([\w.]+)(?: \| null)?$/.exec(typeText)?.[1];
  if (!alias) return [];
  const parts = scope.split(".");
  for (let i = parts.length; i >= 0; i--) {
    const found = types.aliases.get([...parts.slice(0, i), alias].join("."));
    if (found) return literals(found);
  }
  return [];
}

/**
 * Why a difference is the newer API version rather than the twin's own, or undefined: a field
 * added or removed, or an enum value added. Any other changed type is declared by hand.
 */
export function versionSkew(types: ServedTypes) {
  return (d: Difference, body: unknown): string | undefined => {
    const segments = d.path.split("/").filter(Boolean);
    const field = segments.at(-1);
    if (!field) return undefined;
    const owners = interfacesAt(types, body, segments.slice(0, -1));
    if (owners.length === 0) return undefined;
    if (d.kind === "type") {
      // An enum value the old description lacks and the new types list (a meter's `last` formula).
      const value = valueAt(body, segments);
      const typed = owners.map((name) => types.interfaces.get(name)?.get(field)).find((t) => t !== undefined);
      const listed = typeof value === "string" && typed !== undefined && enumValues(types, typed, owners[0]).includes(value);
      return listed ? `value added after 2024-04-10: stripe-node 23.1.0 lists '${value}' for ${owners[0]}.${field}` : undefined;
    }
    if (d.kind !== "missing" && d.kind !== "extra") return undefined;
    const declaredNow = owners.some((name) => types.interfaces.get(name)?.has(field));
    if (d.kind === "extra" && declaredNow) return `added after 2024-04-10: stripe-node 23.1.0 declares ${owners[0]}.${field}`;
    if (d.kind === "missing" && !declaredNow)
      return `removed after 2024-04-10: stripe-node 23.1.0's ${owners[0]} no longer declares ${field}`;
    return undefined;
  };
}
