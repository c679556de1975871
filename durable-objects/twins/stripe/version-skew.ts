// Node only. The Stripe answers are validated against the newest spec3.json obtainable here, for
// API version 2024-04-10, while the twin serves the version stripe-node 23.1.0 pins (2026-10-28).
// Between the two Stripe added fields (an invoice's `parent`, a customer's `customer_account`) and
// removed others (an invoice's `paid`, a subscription's `current_period_end`, moved to its items:
// docs.stripe.com/changelog/basil). stripe-node's type declarations are generated from the newer
// spec3.json, so they say which fields the served version has: a field the old description lacks
// but the new types declare is the newer API, as is one the old description requires and the new
// types no longer declare. Any other difference still fails unless fidelity.ts declares it.
import path from "node:path";
import { type Declarations, declarationsIn, enumValues, referenced } from "../kit/fidelity/client-types";
import type { Difference } from "../kit/fidelity/conformance";

/** stripe-node's object types: its declarations, and the interfaces each `object` value names. */
export interface ServedTypes extends Declarations {
  byObject: Map<string, string[]>;
}

export function servedTypes(root: string): ServedTypes {
  const resources = path.join(root, "node_modules/stripe/cjs/resources");
  // resources/Checkout/Sessions.d.ts declares Stripe.Checkout.Session.
  const declarations = declarationsIn(path.join(root, "node_modules/stripe/cjs"), (folder) => path.dirname(folder).startsWith(resources));
  const byObject = new Map<string, string[]>();
  for (const [name, fields] of declarations.interfaces) {
    const object = /^'([\w.]+)'$/.exec(fields.get("object") ?? "")?.[1];
    if (object) byObject.set(object, [...(byObject.get(object) ?? []), name]);
  }
  return { ...declarations, byObject };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

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
      return typeText ? referenced(types, typeText, name, "Stripe") : [];
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
