// Generated GitHub worlds: one repository of `count` issues over a handful of labels, derived
// from the count alone, for the contract's round trip and the bench's 10 versus 10,000.

const LABELS = ["bug", "enhancement", "docs", "infra", "question"];

/** The raw seed (as a task author writes it); the twin's parser fills the defaults. */
export function generateGithubSeed(count: number): Record<string, unknown> {
  return {
    authenticated_user: "agent",
    users: [{ login: "acme", type: "Organization" }, { login: "agent" }, { login: "reporter" }],
    repositories: [
      {
        owner: "acme",
        name: "world",
        labels: LABELS.map((name, i) => ({ name, color: (0x200000 + i * 40503).toString(16).slice(-6) })),
        branches: [{ name: "main", files: [{ path: "README.md", content: "# world\n" }] }],
        issues: Array.from({ length: count }, (_, i) => ({
          number: i + 1,
          title: `Generated issue ${i + 1}`,
          user: "reporter",
          labels: [LABELS[i % LABELS.length]],
          assignees: i % 3 === 0 ? ["agent"] : [],
          state: i % 4 === 3 ? "closed" : "open",
          created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
        })),
      },
    ],
  };
}
