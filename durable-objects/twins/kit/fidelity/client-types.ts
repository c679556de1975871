// Node only. An official client's TypeScript declarations, read as data: which fields each of its
// response interfaces declares. Vendors generate these from what their API sends (from their
// current description, or from recorded answers), so where a published description
// is older than the API a twin serves, they say which fields the served API has. Only the
// declaration forms those generators write are read: `interface X {`, `namespace X {`,
// `type X = … & {` / `type X = {` with one member per line, and `type X = 'a' | 'b'` aliases.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** A declared interface's fields, each with its type as written. */
export type Fields = Map<string, string>;

/** Interfaces by qualified name (`Invoice.AutomaticTax`), and type aliases with their text. */
export interface Declarations {
  interfaces: Map<string, Fields>;
  aliases: Map<string, string>;
}

export const emptyDeclarations = (): Declarations => ({ interfaces: new Map(), aliases: new Map() });

const OPEN =
  /^(\s*)(?:export )?(?:declare )?(?:(interface|namespace) (\w+)(?:<[^>]*>)?(?: extends [^{]+)? |type (\w+) = (?:[\w.<>]+ & )?)\{$/;
const MEMBER = /^\s*(?:readonly )?(\w+)\??: (.+?);?$/;
const ALIAS = /^\s*(?:export )?(?:declare )?type (\w+) = (.+);$/;

/**
 * Every interface (and object type) and type alias in one declaration file, by qualified name;
 * `prefix` is the namespace the file's folder stands for (`Checkout` for Checkout/Sessions.d.ts).
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
      const kind = open[2] ?? "interface";
      stack.push({ kind, name: open[3] ?? open[4], indent: open[1].length });
      const name = qualified();
      // Declarations merge: a second `interface X` adds to the first.
      if (kind === "interface" && !into.interfaces.has(name)) into.interfaces.set(name, new Map());
      continue;
    }
    const top = stack.at(-1);
    if (!top) continue;
    const indent = line.length - line.trimStart().length;
    if (/^\}[;]?$/.test(line.trim()) && indent === top.indent) {
      stack.pop();
      continue;
    }
    const member = MEMBER.exec(line);
    if (top.kind === "interface" && member && indent === top.indent + 4) into.interfaces.get(qualified())?.set(member[1], member[2]);
  }
  return into;
}

/**
 * Every `.d.ts` under `dir`, read into one set of declarations. A file in a subfolder declares its
 * names in that folder's namespace when `namespaced` says so (a `resources/Checkout/` folder for `Checkout.Session`).
 */
export function declarationsIn(dir: string, namespaced: (folder: string) => boolean = () => false): Declarations {
  const into = emptyDeclarations();
  const walk = (d: string, prefix: readonly string[]) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full, namespaced(full) ? [...prefix, entry.name] : prefix);
      else if (entry.name.endsWith(".d.ts")) declarationsOf(readFileSync(full, "utf8"), into, prefix);
    }
  };
  walk(dir, []);
  return into;
}

/**
 * The interfaces a field's type text names (`Array<Invoice.TotalTax> | null` → `Invoice.TotalTax`),
 * each resolved from `scope` outwards; `root` is the client's own namespace, written before some names.
 */
export function referenced(declarations: Declarations, typeText: string, scope: string, root?: string): string[] {
  const out: string[] = [];
  for (const name of typeText.match(/[A-Z]\w*(?:\.\w+)*/g) ?? []) {
    const bare = root && name.startsWith(`${root}.`) ? name.slice(root.length + 1) : name;
    const parts = scope.split(".");
    for (let i = parts.length; i >= 0; i--) {
      const candidate = [...parts.slice(0, i), bare].join(".");
      if (declarations.interfaces.has(candidate)) {
        out.push(candidate);
        break;
      }
    }
  }
  return out;
}

/** The string literals a field's type allows, following one alias (`Formula` → `'count' | 'last' | 'sum'`). */
export function enumValues(declarations: Declarations, typeText: string, scope: string): string[] {
  const literals = (text: string) => [...text.matchAll(/'([^']*)'/g)].map((m) => m[1]);
  const direct = literals(typeText);
  if (direct.length) return direct;
  const alias = /^([\w.]+)(?: \| null)?$/.exec(typeText)?.[1];
  if (!alias) return [];
  const parts = scope.split(".");
  for (let i = parts.length; i >= 0; i--) {
    const found = declarations.aliases.get([...parts.slice(0, i), alias].join("."));
    if (found) return literals(found);
  }
  return [];
}
