// Small worlds for the GitHub twin's tests, and helpers to reach them the way users do.
import { expect } from "vitest";
import { createSandbox, octokitFor, twinFetch, type CreatedSandbox } from "../helpers";

export const README = "# api\n\nAcme's public API.\n";
export const APP_MAIN = "export const version = 1;\nexport const timeoutMs = 10_000;\n";
export const APP_FEATURE = "export const version = 2;\nexport const timeoutMs = 30_000;\n";

/** acme/api: two labels, a milestone, three issues, one pull request from `feature` into `main`. */
export function smallWorld(extra: Record<string, unknown> = {}) {
  return {
    authenticated_user: "octo",
    users: [
      { login: "acme", type: "Organization", name: "Acme Inc." },
      { login: "octo", name: "Octo Agent" },
      { login: "alice", name: "Alice Smith", email: "alice@example.com" },
      { login: "bob", name: "Bob Jones" },
      { login: "mallory" },
    ],
    repositories: [
      {
        owner: "acme",
        name: "api",
        description: "Acme's API",
        collaborators: ["alice", "bob"],
        labels: [
          { name: "bug", color: "d73a4a", description: "Something isn't working" },
          { name: "enhancement", color: "a2eeef" },
        ],
        milestones: [{ number: 1, title: "v1.0" }],
        branches: [
          {
            name: "main",
            files: [
              { path: "README.md", content: README },
              { path: "src/app.ts", content: APP_MAIN },
              { path: "docs/guide.md", content: "Guide\n" },
            ],
          },
          {
            name: "feature",
            files: [
              { path: "README.md", content: README },
              { path: "src/app.ts", content: APP_FEATURE },
              { path: "src/new.ts", content: "export {};\n" },
            ],
          },
        ],
        issues: [
          {
            number: 1,
            title: "Requests time out",
            body: "Long reports fail after 10 seconds. cc @alice",
            user: "alice",
            labels: ["bug"],
            assignees: ["bob"],
            milestone: 1,
            created_at: "2026-01-01T00:00:00Z",
          },
          {
            number: 2,
            title: "Document pagination",
            body: "The Link header is undocumented.",
            user: "bob",
            created_at: "2026-01-02T00:00:00Z",
          },
          {
            number: 3,
            title: "Old crash",
            body: "Fixed long ago.",
            user: "alice",
            state: "closed",
            labels: ["bug"],
            created_at: "2026-01-03T00:00:00Z",
            comments: [{ user: "bob", body: "Confirmed fixed." }],
          },
        ],
        pulls: [
          {
            number: 4,
            title: "Raise the timeout",
            body: "Fixes #1",
            user: "bob",
            head: "feature",
            base: "main",
            created_at: "2026-01-04T00:00:00Z",
          },
        ],
        statuses: [{ ref: "feature", context: "ci/build", state: "success", description: "Build passed" }],
        ...extra,
      },
    ],
  };
}

/** A repository with `count` open issues numbered 1..count, for pagination and scale. */
export function manyIssuesWorld(count: number) {
  return {
    authenticated_user: "octo",
    users: [{ login: "octo" }, { login: "acme", type: "Organization" }],
    repositories: [
      {
        owner: "acme",
        name: "big",
        labels: [{ name: "bug" }, { name: "triage" }],
        issues: Array.from({ length: count }, (_, i) => ({
          number: i + 1,
          title: `Issue ${i + 1}`,
          labels: i % 3 === 0 ? ["bug"] : [],
          created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
        })),
      },
    ],
  };
}

export async function sandboxWith(seed: unknown): Promise<{ sandbox: CreatedSandbox; octokit: ReturnType<typeof octokitFor> }> {
  const sandbox = await createSandbox({ seed });
  return { sandbox, octokit: octokitFor(sandbox) };
}

/** What Octokit's RequestError carries: the status and GitHub's parsed error body. */
export interface GithubFailure {
  status: number;
  message: string;
  response: { data: { message: string; errors?: unknown[]; documentation_url?: string; status?: string }; headers: Record<string, string> };
}

/** Awaits an Octokit call that must fail, and returns GitHub's error for inspection. */
export async function failure(call: Promise<unknown>): Promise<GithubFailure> {
  try {
    await call;
  } catch (err) {
    expect(err).toHaveProperty("status");
    expect(err).toHaveProperty("response");
    return err as GithubFailure;
  }
  throw new Error("expected the call to fail");
}

export interface TapeEntry {
  seq: number;
  method: string;
  path: string;
  status: number;
  operation: string;
  fidelity: string;
  mutated: boolean;
}

export async function tapeOf(sandbox: CreatedSandbox): Promise<TapeEntry[]> {
  return (await twinFetch(sandbox, "/_pome/events")).json<TapeEntry[]>();
}

export async function stateOf<T = Record<string, unknown>>(sandbox: CreatedSandbox): Promise<T> {
  return (await twinFetch(sandbox, "/_pome/state")).json<T>();
}
