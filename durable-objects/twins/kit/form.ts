// Bracket-encoded form bodies (`a[b][0][c]=x&list[]=y`), the way qs-style clients (many Node,
// PHP and Ruby SDKs) write nested objects and arrays. Values stay strings: the vendor decides
// what "1", "true" or "" mean for each parameter.

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/** Nesting deeper than this is kept as a literal key rather than built out (qs's own guard). */
const MAX_DEPTH = 12;

interface Node {
  kind: "node";
  keys: Map<string, Node | string>;
  /** Whether every key was an index (`[0]`) or an append (`[]`): the node is an array. */
  indexed: boolean;
}

const newNode = (): Node => ({ kind: "node", keys: new Map(), indexed: true });

/** `a[b][]` → `["a", "b", ""]`; a key with unbalanced brackets is one literal segment. */
function splitKey(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const parts = [key.slice(0, open)];
  const rest = key.slice(open);
  const re = /\[([^[\]]*)\]/g;
  let consumed = 0;
  for (let m = re.exec(rest); m; m = re.exec(rest)) {
    if (m.index !== consumed || parts.length > MAX_DEPTH) return [key];
    parts.push(m[1]);
    consumed = m.index + m[0].length;
  }
  return consumed === rest.length ? parts : [key];
}

function place(root: Node, segments: string[], value: string): void {
  let node = root;
  for (let i = 0; i < segments.length; i++) {
    let seg = segments[i];
    if (seg === "") seg = String(node.keys.size);
    else if (!/^\d+$/.test(seg) || i === 0) node.indexed = false;
    if (i === segments.length - 1) {
      node.keys.set(seg, value);
      return;
    }
    const next = node.keys.get(seg);
    if (next !== undefined && typeof next !== "string") {
      node = next;
    } else {
      const child = newNode();
      node.keys.set(seg, child);
      node = child;
    }
  }
}

function build(node: Node): FormValue {
  const entries = [...node.keys.entries()].map(([k, v]) => [k, typeof v === "string" ? v : build(v)] as const);
  if (node.indexed && entries.length) return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
  const out: FormObject = {};
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/** Parses an `application/x-www-form-urlencoded` body or query string with bracket nesting. */
export function parseForm(text: string): FormObject {
  const root = newNode();
  root.indexed = false;
  for (const [key, value] of new URLSearchParams(text)) place(root, splitKey(key), value);
  const built = build(root);
  return typeof built === "object" && !Array.isArray(built) ? built : {};
}

/** Writes an object back as a bracket-encoded form, arrays by index (the inverse of parseForm). */
export function encodeForm(value: unknown, prefix = ""): string {
  const parts: string[] = [];
  const walk = (v: unknown, key: string) => {
    if (v === undefined) return;
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${key}[${i}]`));
    else if (typeof v === "object" && v !== null) for (const [k, inner] of Object.entries(v)) walk(inner, key ? `${key}[${k}]` : k);
    else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(v === null ? "" : String(v))}`);
  };
  walk(value, prefix);
  return parts.join("&");
}
