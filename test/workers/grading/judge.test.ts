// The judge's three providers against local fakes of their APIs; nothing here touches the network.
import { describe, expect, it } from "vitest";
import { judgeFromEnv, makeJudge } from "../../../workers/grading/judge";
import { buildJudgePrompt, parseVerdict, renderTape } from "../../../workers/grading/judge/prompt";
import { anthropicProvider, openAiProvider, workersAiProvider } from "../../../workers/grading/judge/providers";
import type { FetchLike, JudgeRequest } from "../../../workers/grading/judge/types";
import { row, world } from "./fixtures";

const REQUEST: JudgeRequest = {
  task: { name: "Triage", prompt: "Label issue #1 and explain why.", expectedBehavior: null },
  criterion: { id: "m1", text: "The comment explains the label", kind: "model" },
  evidence: {
    twins: ["github"],
    perTwin: { github: { initial: world(), final: world(), tape: [] } },
    tape: [row({ method: "POST", path: "/repos/acme/api/issues/1/labels", status: 200, mutated: true, operation: "issues.addLabels" })],
  },
};

interface Seen {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A fake provider server: records each request and answers from a script. */
function fakeServer(answers: ((seen: Seen) => Response)[]): { fetch: FetchLike; seen: Seen[] } {
  const seen: Seen[] = [];
  const fetchImpl: FetchLike = async (url, init) => {
    const entry = { url, headers: new Headers(init.headers), body: JSON.parse(String(init.body)) as Record<string, unknown> };
    seen.push(entry);
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
    return answer(entry);
  };
  return { fetch: fetchImpl, seen };
}

const anthropicAnswer = (text: string) => () => Response.json({ content: [{ type: "text", text }], stop_reason: "end_turn" });
const openAiAnswer = (text: string) => () => Response.json({ choices: [{ index: 0, message: { role: "assistant", content: text } }] });
const VERDICT = '{"verdict":"pass","reason":"The comment on #1 says the timeout is a bug."}';

describe("Anthropic provider", () => {
  it("posts a Messages API request and reads the verdict from the text block", async () => {
    const server = fakeServer([anthropicAnswer(`Here you go:\n\`\`\`json\n${VERDICT}\n\`\`\``)]);
    const judge = makeJudge(
      anthropicProvider({ model: "claude-test", apiKey: "sk-ant-test", baseUrl: "http://judge.local", fetch: server.fetch }),
    );
    expect(await judge.judge(REQUEST)).toEqual({ ok: true, verdict: "pass", reason: "The comment on #1 says the timeout is a bug." });
    const [call] = server.seen;
    expect(call.url).toBe("http://judge.local/v1/messages");
    expect(call.headers.get("x-api-key")).toBe("sk-ant-test");
    expect(call.headers.get("anthropic-version")).toBe("2023-06-01");
    expect(call.body).toMatchObject({ model: "claude-test", messages: [{ role: "user" }] });
    expect(String(call.body.system)).toContain('"verdict"');
    expect(judge.model).toBe("anthropic:claude-test");
  });
});

describe("OpenAI-compatible provider", () => {
  it("posts chat completions with a bearer key", async () => {
    const server = fakeServer([openAiAnswer('{"verdict":"fail","reason":"No comment was posted."}')]);
    const judge = makeJudge(openAiProvider({ model: "gpt-test", apiKey: "key-1", baseUrl: "http://llm.local/v1/", fetch: server.fetch }));
    expect(await judge.judge(REQUEST)).toEqual({ ok: true, verdict: "fail", reason: "No comment was posted." });
    expect(server.seen[0].url).toBe("http://llm.local/v1/chat/completions");
    expect(server.seen[0].headers.get("authorization")).toBe("Bearer key-1");
    expect(server.seen[0].body.messages).toMatchObject([{ role: "system" }, { role: "user" }]);
  });

  it("retries a malformed answer once and then uses the second", async () => {
    const server = fakeServer([openAiAnswer("I think it passes."), openAiAnswer(VERDICT)]);
    const judge = makeJudge(openAiProvider({ model: "m", apiKey: "k", fetch: server.fetch }));
    expect((await judge.judge(REQUEST)).ok).toBe(true);
    expect(server.seen).toHaveLength(2);
  });

  it("gives up after two malformed answers", async () => {
    const server = fakeServer([openAiAnswer('{"verdict":"maybe","reason":"unsure"}')]);
    const judge = makeJudge(openAiProvider({ model: "m", apiKey: "k", fetch: server.fetch }));
    const answer = await judge.judge(REQUEST);
    expect(answer.ok).toBe(false);
    expect(server.seen).toHaveLength(2);
  });

  it("gives up after two HTTP failures, without leaking secrets in the detail", async () => {
    const server = fakeServer([() => new Response("bad key ghp_abcdefghijklmnopqrstuvwxyz0123", { status: 401 })]);
    const judge = makeJudge(openAiProvider({ model: "m", apiKey: "k", fetch: server.fetch }));
    const answer = await judge.judge(REQUEST);
    expect(answer).toMatchObject({ ok: false });
    expect(answer.ok ? "" : answer.detail).toContain("401");
    expect(answer.ok ? "" : answer.detail).not.toContain("ghp_");
  });
});

describe("Workers AI provider", () => {
  it("runs the model on the AI binding", async () => {
    const calls: { model: string; input: unknown }[] = [];
    const ai = {
      run: async (model: string, input: unknown) => {
        calls.push({ model, input });
        return { response: VERDICT };
      },
    };
    const judge = makeJudge(workersAiProvider({ model: "@cf/test/model", ai }));
    expect(await judge.judge(REQUEST)).toMatchObject({ ok: true, verdict: "pass" });
    expect(calls[0].model).toBe("@cf/test/model");
  });
  it("accepts an answer the binding already parsed as JSON", async () => {
    const ai = { run: async () => ({ response: { verdict: "fail", reason: "nothing done" } }) };
    expect(await makeJudge(workersAiProvider({ model: "m", ai })).judge(REQUEST)).toEqual({
      ok: true,
      verdict: "fail",
      reason: "nothing done",
    });
  });
});

describe("choosing the judge from settings", () => {
  const fetchNever: FetchLike = async () => {
    throw new Error("no network in tests");
  };
  it("has no judge when none is configured or its key is missing", () => {
    expect(judgeFromEnv({ JUDGE_PROVIDER: "" })).toBeUndefined();
    expect(judgeFromEnv({ JUDGE_PROVIDER: "anthropic" })).toBeUndefined();
    expect(judgeFromEnv({ JUDGE_PROVIDER: "workers-ai" })).toBeUndefined();
    expect(judgeFromEnv({ JUDGE_PROVIDER: "openai" })).toBeUndefined();
  });
  it("builds the named provider with the configured or default model", () => {
    expect(judgeFromEnv({ JUDGE_PROVIDER: "anthropic", JUDGE_API_KEY: "k", JUDGE_MODEL: "claude-x" }, fetchNever)?.model).toBe(
      "anthropic:claude-x",
    );
    expect(judgeFromEnv({ JUDGE_PROVIDER: "openai", JUDGE_BASE_URL: "http://localhost:11434/v1" }, fetchNever)?.model).toBe(
      "openai:gpt-4o-mini",
    );
    expect(judgeFromEnv({ JUDGE_PROVIDER: "workers-ai", AI: { run: async () => ({}) } })?.model).toMatch(/^workers-ai:@cf\//);
  });
});

describe("what the judge reads", () => {
  it("includes the task prompt, the criterion, the tape and the final state", () => {
    const prompt = buildJudgePrompt(REQUEST);
    expect(prompt.user).toContain("Label issue #1 and explain why.");
    expect(prompt.user).toContain("The comment explains the label");
    expect(prompt.user).toContain("POST /repos/acme/api/issues/1/labels -> 200 issues.addLabels [mutated]");
    expect(prompt.user).toContain('"repositories"');
  });
  it("keeps the start and the end of a long tape within its budget", () => {
    const tape = Array.from({ length: 400 }, (_, i) => row({ path: `/repos/acme/api/issues/${i + 1}` }));
    const text = renderTape(tape, 4000);
    expect(text.length).toBeLessThan(4200);
    expect(text).toContain("/issues/1 ");
    expect(text).toContain("/issues/400 ");
    expect(text).toMatch(/… \d+ calls omitted …/);
  });
  it("reads a verdict only with a pass/fail word and a reason", () => {
    expect(parseVerdict('{"verdict":"PASS","reason":"ok"}')).toEqual({ ok: true, verdict: "pass", reason: "ok" });
    expect(parseVerdict('{"verdict":"pass"}')).toBeUndefined();
    expect(parseVerdict("pass")).toBeUndefined();
  });
});
