// Recorded real traffic: @octokit/fixtures' scenarios (requests and responses recorded from
// GitHub itself) replayed against the GitHub twin seeded to match; status, the headers clients
// read and the body shapes must agree, apart from what github/fidelity.ts declares.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_HEADERS, recordedDivergences } from "../../../durable-objects/twins/github/fidelity";
import { type RecordedDifference, shapeDifferences } from "../../../durable-objects/twins/kit/fidelity/recorded";
import { createSandbox } from "../mcp/helpers";

const root = path.resolve(import.meta.dirname, "../../..");
const ORG = "octokit-fixture-org";

interface Recorded {
  method: string;
  path: string;
  body?: unknown;
  status: number;
  headers: Record<string, string>;
  response: unknown;
}

const scenario = (name: string): Recorded[] =>
  JSON.parse(
    readFileSync(path.join(root, "node_modules/@octokit/fixtures/scenarios/api.github.com", name, "normalized-fixture.json"), "utf8"),
  );

/** The world each scenario was recorded in, as a twin seed. */
function worldFor(name: string, recorded: Recorded[]) {
  const repo = name === "get-repository" ? "hello-world" : name;
  const issues: { number: number; title: string; body?: string }[] = [];
  if (name === "paginate-issues")
    for (const r of recorded)
      for (const i of r.response as { number: number; title: string }[]) issues.push({ number: i.number, title: i.title });
  if (name === "search-issues")
    for (const i of (recorded[0].response as { items: { number: number; title: string; body: string }[] }).items)
      issues.push({ number: i.number, title: i.title, body: i.body });
  if (name === "lock-issue") issues.push({ number: 1, title: "Issue to lock" });
  const labels = name === "labels" ? (recorded[0].response as { name: string; color: string; description: string }[]) : [];
  return {
    authenticated_user: "octokit-fixture-user-a",
    users: [{ login: ORG, type: "Organization" }, { login: "octokit-fixture-user-a" }],
    repositories: [
      {
        owner: ORG,
        name: repo,
        labels: labels.map((l) => ({ name: l.name, color: l.color, description: l.description })),
        issues: issues.sort((a, b) => a.number - b.number),
        branches: [{ name: "main", files: [{ path: "README.md", content: "# hello-world\n" }] }],
      },
    ],
  };
}

async function replay(name: string): Promise<RecordedDifference[]> {
  const recorded = scenario(name);
  const sandbox = await createSandbox({ twins: ["github"], seed: worldFor(name, recorded) });
  const base = sandbox.per_twin.github.api_url;
  const auth = { authorization: `token ${sandbox.provider_credentials.github.token}`, accept: "application/vnd.github.v3+json" };
  const out: RecordedDifference[] = [];
  let next: string | undefined;
  for (const r of recorded) {
    // A page after the first is reached by the twin's own Link header, as clients do (GitHub's
    // points at /repositories/<its id>, which is not the twin's id).
    const url = r.path.startsWith("/repositories/") && next ? next : `${base}${r.path}`;
    const hasBody = r.body !== undefined && r.body !== null && r.body !== "";
    const res = await fetch(url, {
      method: r.method.toUpperCase(),
      headers: { ...auth, ...(hasBody ? { "content-type": "application/json" } : {}) },
      body: hasBody ? JSON.stringify(r.body) : undefined,
    });
    next = /<([^>]+)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
    const request = `${r.method.toUpperCase()} ${r.path.split("?")[0]}`;
    const text = await res.text();
    if (res.status !== r.status)
      out.push({ scenario: name, request, path: "/", kind: "status", detail: `${res.status} where GitHub answered ${r.status}` });
    for (const h of CLIENT_HEADERS)
      if (h in r.headers && !res.headers.has(h)) out.push({ scenario: name, request, path: h, kind: "header", detail: "GitHub sends it" });
    if (res.status === r.status && text && r.response !== undefined && r.response !== "")
      for (const d of shapeDifferences(r.response, JSON.parse(text))) out.push({ scenario: name, request, ...d });
  }
  return out;
}

const undeclared = (diffs: RecordedDifference[]) =>
  diffs
    .filter(
      (d) => !recordedDivergences.some((x) => x.kind === d.kind && x.path === d.path && (x.scenario === "*" || x.scenario === d.scenario)),
    )
    .map((d) => `${d.scenario}: ${d.request} ${d.kind} ${d.path} (${d.detail})`);

describe("the GitHub twin answers @octokit/fixtures' recorded scenarios as GitHub did", () => {
  for (const name of ["get-repository", "labels", "paginate-issues", "search-issues", "add-labels-to-issue", "lock-issue"])
    it(`replays ${name}`, async () => {
      expect(undeclared(await replay(name))).toEqual([]);
    }, 60_000);
});
