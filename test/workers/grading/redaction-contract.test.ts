// One redaction rule for every twin (issue 38, point 3). The evidence is redacted before grading,
// so a check looking for a secret can neither find nor miss it: the evaluator skips it as
// `subject_redacted`, whatever the twin, whatever the check. This walks the whole registry, so a
// new twin or a new check that takes text is covered without anyone remembering to.
import { describe, expect, it } from "vitest";
import { containsSecret, redactValue } from "../../../durable-objects/redact";
import { TWIN_IDS, twinById } from "../../../durable-objects/twins/registry";
import type { CheckDefinition } from "../../../durable-objects/twins/types";
import { acceptsValue, exampleSentence, renderCheck } from "../../../workers/grading/binding";
import { gradeCheck, gradeCriteria } from "../../../workers/grading/evaluate";
import type { GradingEvidence } from "../../../workers/grading/types";

// One credential of each shape redaction knows: every twin's vendor and the platform's own.
const SECRETS = [
  "ghp_abcdefghijklmnopqrstuvwxyz0123",
  "github_pat_abcdefghijklmnopqrstuv0123",
  "xoxb-1234567890abcdef",
  "ya29.abcdefghijklmnop",
  "lin_api_abcdefghijklmnop",
  "sk_test_abcdefghijklmnop",
  "whsec_abcdefghijklmnop",
  "pme_abcdefghijkl",
];

/** A parameter takes free text when it accepts a sentence with spaces in it. */
const takesText = (check: CheckDefinition, param: string) => acceptsValue(check, param, "Deploy blocked until Monday");

const textParams = TWIN_IDS.flatMap((twin) =>
  twinById(twin).checks.flatMap((check) =>
    check.params.filter((p) => takesText(check, p.name)).map((p) => ({ twin, check, param: p.name })),
  ),
);

const exampleArgs = (check: CheckDefinition) => Object.fromEntries(check.params.map((p) => [p.name, p.example]));

describe("every credential shape is one redaction erases", () => {
  it.each(SECRETS)("%s", (secret) => expect(containsSecret(secret)).toBe(true));
});

describe("every twin has checks that take text, and the rule covers them all", () => {
  it.each(TWIN_IDS)("%s publishes at least one check with a free-text parameter", (twin) => {
    expect(textParams.filter((p) => p.twin === twin).length).toBeGreaterThan(0);
  });

  it("covers the two checks that used to fail an agent who did post the text (Linear comments, Gmail text)", () => {
    const ids = textParams.map((p) => `${p.check.id}:${p.param}`);
    expect(ids).toContain("linear.comment-contains:needle");
    expect(ids).toContain("gmail.message-sent-with-text:text");
  });
});

describe("a free-text parameter that redaction would erase is skipped subject_redacted, for every check of every twin", () => {
  it.each(textParams.map((p) => [`${p.check.id} {${p.param}}`, p] as const))("%s", (_name, { check, param }) => {
    for (const secret of SECRETS) {
      const value = `Deploy ${secret} now`;
      // Every free-text pattern of the registry accepts this; were one not to, the value could not be named at all.
      expect(acceptsValue(check, param, value)).toBe(true);
      // The evidence holds what the agent posted, redacted as finalize redacts it.
      const evidence = redactValue({ initial: {}, final: { posted: value }, tape: [] });
      const result = gradeCheck(check, { ...exampleArgs(check), [param]: value }, evidence, false);
      expect(result, `${check.id} with ${secret}`).toMatchObject({ status: "skipped", skip_reason: "subject_redacted" });
      expect(result.reason).toContain(`the ${param} looked for`);
    }
  });

  it.each(textParams.map((p) => [`${p.check.id} {${p.param}}`, p] as const))(
    "%s is graded as usual when its text holds no secret",
    (_n, { check }) => {
      const result = gradeCheck(check, exampleArgs(check), { initial: {}, final: {}, tape: [] }, true);
      expect(result.skip_reason).not.toBe("subject_redacted");
    },
  );
});

describe("a criterion sentence naming a secret binds and is skipped, not failed", () => {
  const none: GradingEvidence["perTwin"] = {};
  for (const twin of TWIN_IDS) none[twin] = { initial: {}, final: {}, tape: [] };
  const evidence: GradingEvidence = { twins: TWIN_IDS, perTwin: none, tape: [] };

  it.each([
    ["linear", "linear.comment-contains", "needle"],
    ["gmail", "gmail.message-sent-with-text", "text"],
    ["slack", "slack.message-posted", "text"],
    ["github", "github.issue-comment-contains", "needle"],
  ] as const)("%s: %s", async (twin, id, param) => {
    const check = twinById(twin).checks.find((c) => c.id === id);
    if (!check) throw new Error(`no ${id}`);
    const rendered = renderCheck(check, { ...exampleArgs(check), [param]: "key lin_api_abcdefghijklmnop here" });
    if (!rendered.ok) throw new Error(`${id} did not render: ${JSON.stringify(rendered)}`);
    expect(exampleSentence(check)).not.toBe(rendered.text);
    const [result] = await gradeCriteria({
      criteria: [{ id: "c1", text: rendered.text, kind: "code", twin }],
      evidence,
      task: { name: null, prompt: null, expectedBehavior: null },
      judge: undefined,
    });
    expect(result).toMatchObject({ check_id: id, status: "skipped", skip_reason: "subject_redacted" });
  });
});
