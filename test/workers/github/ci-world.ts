// A repository with CI: a workflow whose latest run on `feature` failed in a flaky test job (a
// re-run passes), a passing lint check run, and helpers the CI tests share.
import { smallWorld } from "./fixtures";

export const FLAKY_LOG =
  "Run npm test\nFAIL src/app.test.ts\n  ✕ times out after 10s (flaky: network)\nError: Process completed with exit code 1.\n";

export function ciWorld(extra: Record<string, unknown> = {}) {
  return smallWorld({
    workflows: [
      { name: "CI", path: ".github/workflows/ci.yml" },
      { name: "Release", path: ".github/workflows/release.yml", state: "disabled_manually" },
    ],
    workflow_runs: [
      {
        id: 500,
        workflow: "CI",
        head_branch: "main",
        conclusion: "success",
        created_at: "2026-01-05T00:00:00Z",
        jobs: [{ id: 501, name: "test", conclusion: "success", log: "All tests passed\n" }],
      },
      {
        id: 600,
        workflow: ".github/workflows/ci.yml",
        head_branch: "feature",
        event: "pull_request",
        conclusion: "failure",
        rerun_conclusion: "success",
        created_at: "2026-01-06T00:00:00Z",
        jobs: [
          { id: 601, name: "build", conclusion: "success", steps: [{ name: "Compile", conclusion: "success" }], log: "Compiled\n" },
          {
            id: 602,
            name: "test",
            conclusion: "failure",
            steps: [
              { name: "Checkout", conclusion: "success" },
              { name: "Run npm test", conclusion: "failure" },
            ],
            log: FLAKY_LOG,
          },
        ],
        artifacts: [{ id: 610, name: "coverage", size_in_bytes: 2048 }],
      },
    ],
    check_runs: [
      {
        id: 700,
        name: "lint",
        ref: "feature",
        conclusion: "neutral",
        output: { title: "2 warnings", summary: "Style only" },
        annotations: [{ path: "src/app.ts", start_line: 1, end_line: 1, annotation_level: "warning", message: "Prefer const" }],
      },
    ],
    ...extra,
  });
}
