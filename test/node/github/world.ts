// One GitHub repository with every kind of object the everyday operations read: the world the
// shape and conformance tests seed.
export const EVERYDAY_WORLD = {
  authenticated_user: "octo",
  users: [{ login: "acme", type: "Organization" }, { login: "octo", name: "Octo" }, { login: "bob" }],
  repositories: [
    {
      owner: "acme",
      name: "api",
      collaborators: ["bob"],
      labels: [{ name: "bug", color: "d73a4a", description: "Broken" }],
      milestones: [{ number: 1, title: "v1" }],
      branches: [
        {
          name: "main",
          files: [
            { path: "README.md", content: "# api\n" },
            { path: "src/a.ts", content: "a\n" },
          ],
        },
        {
          name: "feature",
          files: [
            { path: "README.md", content: "# api!\n" },
            { path: "src/a.ts", content: "a\n" },
          ],
        },
      ],
      issues: [
        {
          number: 1,
          title: "Bug",
          body: "It breaks",
          user: "bob",
          labels: ["bug"],
          assignees: ["bob"],
          milestone: 1,
          comments: [{ user: "bob", body: "+1" }],
        },
      ],
      pulls: [{ number: 2, title: "Fix", user: "bob", head: "feature", base: "main", requested_reviewers: ["octo"] }],
      statuses: [{ ref: "feature", context: "ci", state: "success" }],
    },
  ],
};
