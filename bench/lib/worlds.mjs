// The worlds and criteria the bench drives: one GitHub repository of N issues over L labels, a
// seed the parser must refuse, and a finalize body of many criteria that bind to GitHub checks.

export const OWNER = "bench-org";
export const REPO = "world";
export const ACTOR = "bench-agent";

const labelName = (i) => `label-${i}`;

/** A repository of `issues` issues, each carrying two of `labels` labels (when there are any). */
export function githubWorld({ issues, labels }) {
  const defined = Array.from({ length: labels }, (_, i) => ({ name: labelName(i), color: (0x100000 + i * 40503).toString(16).slice(-6) }));
  return {
    authenticated_user: ACTOR,
    users: [{ login: ACTOR }, { login: OWNER, type: "Organization" }],
    repositories: [
      {
        owner: OWNER,
        name: REPO,
        labels: defined,
        branches: [{ name: "main", files: [{ path: "README.md", content: "# world\n" }] }],
        issues: Array.from({ length: issues }, (_, i) => ({
          number: i + 1,
          title: `Benchmark issue ${i + 1}`,
          labels: labels ? [...new Set([labelName(i % labels), labelName((i * 7 + 3) % labels)])] : [],
        })),
      },
    ],
  };
}

/** The empty world: no repositories at all. */
export const emptyWorld = () => ({ users: [], repositories: [] });

/** A small world with one misspelt key, which the strict parser refuses with its path. */
export function invalidWorld() {
  const world = githubWorld({ issues: 10, labels: 5 });
  const [first, ...rest] = world.repositories[0].issues;
  const { title, ...untitled } = first;
  world.repositories[0].issues = [{ ...untitled, titel: title }, ...rest];
  return world;
}

/**
 * `count` criteria over a world of `issues` issues, cycling through the GitHub check vocabulary:
 * mostly final-state checks, one in ten reading the tape, as a real task mixes them.
 */
export function benchCriteria(count, issues) {
  const repo = `\`${OWNER}/${REPO}\``;
  const sentences = [
    (n) => `Issue #${n} exists in ${repo}`,
    (n) => `Issue #${n} in ${repo} is in state open`,
    (n, i) => `Issue #${n} in ${repo} has the \`${labelName(i % 50)}\` label applied`,
    (n, i) => `A comment containing "bench ${i}" exists on issue #${n} in ${repo}`,
    (n) => `Issue #${n} in ${repo} is assigned to \`${ACTOR}\``,
    () => `No new labels were created in ${repo}`,
    (n, i) => `Issue #${n} in ${repo} has exactly one classification label, and it is \`${labelName(i % 50)}\``,
    () => "No unsupported endpoint was called",
    () => `File \`README.md\` exists in ${repo}`,
    (n) => `Issue #${n} in ${repo} is in state closed`,
  ];
  return Array.from({ length: count }, (_, i) => ({
    id: `c${i + 1}`,
    kind: "code",
    text: sentences[i % sentences.length]((i % issues) + 1, i),
  }));
}
