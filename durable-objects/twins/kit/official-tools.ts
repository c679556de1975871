// A vendor's own MCP tool set, built from its published definitions (a fixture holding what the
// vendor's server lists) and the twin's way of carrying out each tool. What is listed is exactly
// what was published; a published tool the twin has no run for is named in `unrun`, which the
// contract suite keeps empty, so a tool is never listed and then left undone.
import type { OfficialTool, OfficialToolSet } from "../types";

/** The published definitions as a fixture keeps them. */
export interface PublishedToolSet {
  source: string;
  version: string;
  license: string;
  tools: readonly unknown[];
}

interface PublishedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

const isPublishedTool = (t: unknown): t is PublishedTool =>
  typeof t === "object" &&
  t !== null &&
  typeof (t as PublishedTool).name === "string" &&
  typeof (t as PublishedTool).description === "string" &&
  typeof (t as PublishedTool).inputSchema === "object";

/** The tool set a twin serves at `…/mcp/official`: each published tool with its run. */
export function officialToolSet(published: PublishedToolSet, runs: Readonly<Record<string, OfficialTool["run"]>>): OfficialToolSet {
  const tools: OfficialTool[] = [];
  const unrun: string[] = [];
  for (const t of published.tools) {
    if (!isPublishedTool(t)) throw new Error(`${published.source}: a published tool without a name, description or input schema`);
    const run = Object.hasOwn(runs, t.name) ? runs[t.name] : undefined;
    if (!run) {
      unrun.push(t.name);
      continue;
    }
    tools.push({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      published: t as unknown as Record<string, unknown>,
      run,
    });
  }
  return { source: `${published.source}; ${published.version}; ${published.license}`, tools, unrun };
}
