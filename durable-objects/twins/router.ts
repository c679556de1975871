import type { Route } from "./types";

interface CompiledRoute {
  route: Route;
  regex: RegExp;
  names: string[];
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.pattern
    .split("/")
    .map((segment) => {
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        return "([^/]+)";
      }
      if (segment.startsWith("*")) {
        names.push(segment.slice(1));
        return "(.+)";
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { route, regex: new RegExp(`^${source}/?$`), names };
}

/** Decodes a path segment; a malformed escape is kept as sent rather than failing the call. */
function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Matches method and path against a twin's route table. Routes are grouped by method. */
export function createMatcher(routes: readonly Route[]): (method: string, path: string) => RouteMatch | undefined {
  const byMethod = new Map<string, CompiledRoute[]>();
  for (const route of routes) {
    const list = byMethod.get(route.method) ?? [];
    list.push(compile(route));
    byMethod.set(route.method, list);
  }
  return (method, path) => {
    for (const compiled of byMethod.get(method.toUpperCase()) ?? []) {
      const m = compiled.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      compiled.names.forEach((name, i) => {
        params[name] = decodeSegment(m[i + 1]);
      });
      return { route: compiled.route, params };
    }
    return undefined;
  };
}
