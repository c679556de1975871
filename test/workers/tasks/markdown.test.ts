import { describe, expect, it } from "vitest";
import { missingForRun, parseTask, renderCriteriaSection, renderTask } from "../../../workers/tasks";
import type { Task, TaskParseResult } from "../../../workers/tasks";

const TRIAGE = `# Triage a timeout report

A short task used by the parser tests.

## Config
twins: [github]
runs: 3
passThreshold: 80%

## Prompt
Triage issue #1 in acme/api and put the right label on it.

Explain your choice in a comment.

## Seed State
\`\`\`json
{
  "github": {
    "repositories": [
      {
        "owner": "acme",
        "name": "api",
        "labels": [
          {
            "name": "bug"
          }
        ],
        "issues": [
          {
            "number": 1,
            "title": "Requests time out"
          }
        ]
      }
    ]
  }
}
\`\`\`

## Notes for authors
Anything here is kept as written.

- even lists

## Success Criteria
- [code] Issue #1 in \`acme/api\` has the \`bug\` label applied
- [code always_scored] Issue #1 in \`acme/api\` is in state open
- [model] The comment explains the reasoning without inventing a commit SHA
`;

function parsed(markdown: string): Task {
  const result = parseTask(markdown);
  if (!result.ok) throw new Error(`expected a task, got ${JSON.stringify(result.errors)}`);
  return result.task;
}

function errorsOf(result: TaskParseResult) {
  if (result.ok) throw new Error("expected the task to be refused");
  return result.errors;
}

describe("a canonical task file round-trips exactly", () => {
  it("renders a parsed file back byte for byte", () => {
    expect(renderTask(parsed(TRIAGE))).toBe(TRIAGE);
  });

  it("parses a rendered task back to the same data", () => {
    const task = parsed(TRIAGE);
    expect(parseTask(renderTask(task))).toEqual({ ok: true, task });
  });

  it("round-trips a minimal file with only a prompt", () => {
    const md = "## Prompt\nSay hello.\n";
    expect(renderTask(parsed(md))).toBe(md);
  });

  it("round-trips several twins and criterion attributes", () => {
    const md = [
      "# Two twins",
      "",
      "## Config",
      "twins: [github, slack]",
      "passScore: 50%",
      "",
      "## Prompt",
      "Post the CI result.",
      "",
      "## Success Criteria",
      "- [code twin=slack always_scored] A message exists",
      "- [model] It was polite",
      "",
    ].join("\n");
    const task = parsed(md);
    expect(task.criteria[0]).toEqual({ kind: "code", text: "A message exists", twin: "slack", alwaysScored: true });
    expect(renderTask(task)).toBe(md);
  });

  it("renders a hand-built task with no section order in the canonical order", () => {
    const task: Task = {
      name: "Built",
      config: { twins: ["github"], runs: 2 },
      prompt: "Do it.",
      seed: { github: { users: [] } },
      criteria: [{ kind: "model", text: "It was done" }],
      sections: [],
    };
    const md = renderTask(task);
    expect(md.indexOf("## Config")).toBeLessThan(md.indexOf("## Prompt"));
    expect(md.indexOf("## Prompt")).toBeLessThan(md.indexOf("## Seed State"));
    expect(md.indexOf("## Seed State")).toBeLessThan(md.indexOf("## Success Criteria"));
    const back = parsed(md);
    expect({ ...back, sections: [] }).toEqual(task);
  });
});

describe("the file's parts are read into data", () => {
  const task = parsed(TRIAGE);

  it("reads the title as the task's name and keeps the intro", () => {
    expect(task.name).toBe("Triage a timeout report");
    expect(task.intro).toBe("A short task used by the parser tests.");
  });

  it("reads the config keys", () => {
    expect(task.config).toEqual({ twins: ["github"], runs: 3, passThreshold: 80 });
  });

  it("keeps the prompt's own blank lines", () => {
    expect(task.prompt).toBe("Triage issue #1 in acme/api and put the right label on it.\n\nExplain your choice in a comment.");
  });

  it("reads the seed as an object keyed by twin", () => {
    expect(Object.keys(task.seed ?? {})).toEqual(["github"]);
  });

  it("reads criteria with their kind", () => {
    expect(task.criteria.map((c) => c.kind)).toEqual(["code", "code", "model"]);
    expect(task.criteria[1].alwaysScored).toBe(true);
  });

  it("keeps an unknown section verbatim and in its place", () => {
    expect(task.sections).toEqual([
      { kind: "config" },
      { kind: "prompt" },
      { kind: "seed" },
      { kind: "other", heading: "Notes for authors", body: "Anything here is kept as written.\n\n- even lists" },
      { kind: "criteria" },
    ]);
  });

  it("defaults to the github twin when there is no config", () => {
    expect(parsed("## Prompt\nHi\n").config).toEqual({ twins: ["github"] });
  });

  it("accepts a threshold written as a fraction or a bare number", () => {
    expect(parsed("## Config\npassThreshold: 0.75\n").config.passThreshold).toBe(75);
    expect(parsed("## Config\npassThreshold: 60\n").config.passThreshold).toBe(60);
  });

  it("matches known headings whatever their case", () => {
    expect(parsed("## success criteria\n- [model] Fine\n").criteria).toHaveLength(1);
  });

  it("does not take a heading inside a fenced block for a section", () => {
    const md = "## Prompt\nWrite this file:\n\n```md\n## Success Criteria\n- [code] nope\n```\n";
    const task = parsed(md);
    expect(task.criteria).toEqual([]);
    expect(task.prompt).toContain("## Success Criteria");
    expect(renderTask(task)).toBe(md);
  });

  it("reads a file with Windows line endings", () => {
    expect(parsed("## Prompt\r\nHi\r\n\r\n## Success Criteria\r\n- [model] Ok\r\n").criteria).toHaveLength(1);
  });
});

describe("a malformed task is refused with the line and what is wrong", () => {
  it("refuses an unknown config key and lists the known ones", () => {
    const [error] = errorsOf(parseTask("## Config\ntwins: [github]\npassthreshold: 80%\n"));
    expect(error).toMatchObject({ line: 3, section: "Config" });
    expect(error.message).toContain("passThreshold");
  });

  it("refuses runs that are not a positive whole number", () => {
    expect(errorsOf(parseTask("## Config\nruns: 0\n"))[0].message).toMatch(/runs must be a whole number/);
    expect(errorsOf(parseTask("## Config\nruns: two\n"))[0].line).toBe(2);
  });

  it("refuses more than three twins", () => {
    expect(errorsOf(parseTask("## Config\ntwins: [github, slack, stripe, gmail]\n"))[0].message).toMatch(/at most 3/);
  });

  it("refuses a criterion line without a kind", () => {
    const [error] = errorsOf(parseTask("## Prompt\nHi\n\n## Success Criteria\n- [code] Fine\n- the agent did well\n"));
    expect(error).toMatchObject({ line: 6, section: "Success Criteria" });
  });

  it("refuses an unknown criterion attribute", () => {
    expect(errorsOf(parseTask("## Success Criteria\n- [code always] X\n"))[0].message).toMatch(/always_scored/);
  });

  it("refuses seed JSON that does not parse, pointing into the block", () => {
    const [error] = errorsOf(parseTask('## Seed State\n```json\n{"github": {,}}\n```\n'));
    expect(error).toMatchObject({ line: 3, section: "Seed State" });
    expect(error.message).toMatch(/not valid JSON/);
  });

  it("refuses a flat seed, saying the block is keyed by twin", () => {
    const [error] = errorsOf(parseTask('## Seed State\n```json\n{"users": []}\n```\n'));
    expect(error.message).toMatch(/"users" is not one of the task's twins/);
  });

  it("refuses a seed section without a fenced block", () => {
    expect(errorsOf(parseTask('## Seed State\n{"github": {}}\n'))[0].message).toMatch(/fenced/);
  });

  it("refuses a known section given twice", () => {
    expect(errorsOf(parseTask("## Prompt\nA\n\n## Prompt\nB\n"))[0]).toMatchObject({ line: 4 });
  });

  it("refuses a criterion routed to a twin the task does not have", () => {
    expect(errorsOf(parseTask("## Success Criteria\n- [code twin=slack] X\n"))[0].message).toMatch(/twin "slack"/);
  });

  it("reports every problem at once", () => {
    expect(errorsOf(parseTask("## Config\nruns: x\nfoo: 1\n\n## Success Criteria\n- nope\n"))).toHaveLength(3);
  });
});

describe("a task is complete only with a prompt and criteria", () => {
  it("names what a task lacks", () => {
    const problems = missingForRun(parsed("# Stub\n"));
    expect(problems.map((p) => p.section)).toEqual(["Prompt", "Success Criteria"]);
  });

  it("finds nothing missing in a whole task", () => {
    expect(missingForRun(parsed(TRIAGE))).toEqual([]);
  });
});

describe("structured criteria render into a Success Criteria section", () => {
  it("writes one line per pick, with attributes where given", () => {
    expect(
      renderCriteriaSection([
        { kind: "code", text: "No unsupported endpoint was called" },
        { kind: "code", text: "A message exists", twin: "slack" },
        { kind: "model", text: "The tone is calm" },
      ]),
    ).toBe(
      "## Success Criteria\n- [code] No unsupported endpoint was called\n- [code twin=slack] A message exists\n- [model] The tone is calm\n",
    );
  });

  it("appended to a source, parses back to the same criteria", () => {
    const criteria = [{ kind: "code" as const, text: "No new labels were created in `acme/api`" }];
    const task = parsed(`## Prompt\nHi\n\n${renderCriteriaSection(criteria)}`);
    expect(task.criteria).toEqual(criteria);
  });
});
