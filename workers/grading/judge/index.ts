// Choosing and running the judge. Settings: JUDGE_PROVIDER ("" | anthropic | openai | workers-ai),
// JUDGE_MODEL, JUDGE_BASE_URL; secret JUDGE_API_KEY; binding AI for Workers AI. Nothing
// configured means no judge, and [model] criteria are skipped judge_unavailable, never passed.
import { redactText } from "../../../durable-objects/redact";
import { buildJudgePrompt, parseVerdict } from "./prompt";
import { anthropicProvider, openAiProvider, workersAiProvider } from "./providers";
import type { FetchLike, Judge, JudgeAnswer, JudgeProvider, JudgeRequest } from "./types";

const DEFAULT_MODELS: Record<JudgeProvider["name"], string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-4o-mini",
  "workers-ai": "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
};

/** `text` with every secret value replaced by its name: a provider's 401 may quote the key it was sent. */
const withoutSecrets = (text: string, secrets: Readonly<Record<string, string | undefined>>) =>
  Object.entries(secrets).reduce((out, [name, value]) => (value && value.length >= 4 ? out.split(value).join(`[${name}]`) : out), text);

/**
 * A malformed or failed answer is asked again once; a second failure is judge_unavailable.
 * `secrets` (the provider's key, by its setting's name) never reach a stored reason.
 */
export function makeJudge(provider: JudgeProvider, attempts = 2, secrets: Readonly<Record<string, string | undefined>> = {}): Judge {
  return {
    model: `${provider.name}:${provider.model}`,
    async judge(request: JudgeRequest): Promise<JudgeAnswer> {
      const prompt = buildJudgePrompt(request);
      let last = "";
      for (let attempt = 1; attempt <= attempts; attempt++) {
        try {
          const text = await provider.complete(prompt);
          const verdict = parseVerdict(text);
          if (verdict) return { ...verdict, reason: redactText(withoutSecrets(verdict.reason, secrets)) };
          last = "the judge's answer was not a JSON verdict with a reason";
        } catch (err) {
          // The provider's message may quote our request; keep it out of stored results.
          last = redactText(withoutSecrets(err instanceof Error ? err.message : String(err), secrets));
        }
      }
      return {
        ok: false,
        detail: `the judge (${provider.name}:${provider.model}) gave no usable verdict after ${attempts} attempts: ${last}`,
      };
    },
  };
}

export interface JudgeEnv {
  JUDGE_PROVIDER?: string;
  JUDGE_MODEL?: string;
  JUDGE_BASE_URL?: string;
  JUDGE_API_KEY?: string;
  AI?: { run(model: string, input: unknown): Promise<unknown> };
}

/** The configured judge, or undefined when none is (or its credentials are missing). */
export function judgeFromEnv(env: JudgeEnv, fetchImpl?: FetchLike): Judge | undefined {
  const name = (env.JUDGE_PROVIDER ?? "").trim();
  if (name !== "anthropic" && name !== "openai" && name !== "workers-ai") return undefined;
  const model = (env.JUDGE_MODEL ?? "").trim() || DEFAULT_MODELS[name];
  const baseUrl = (env.JUDGE_BASE_URL ?? "").trim() || undefined;
  const apiKey = env.JUDGE_API_KEY || undefined;
  if (name === "workers-ai") return env.AI ? makeJudge(workersAiProvider({ model, ai: env.AI })) : undefined;
  const secrets = { JUDGE_API_KEY: apiKey };
  if (name === "anthropic")
    return apiKey ? makeJudge(anthropicProvider({ model, apiKey, baseUrl, fetch: fetchImpl }), 2, secrets) : undefined;
  // A self-hosted OpenAI-compatible server may need no key, but then it must be named.
  return apiKey || baseUrl ? makeJudge(openAiProvider({ model, apiKey, baseUrl, fetch: fetchImpl }), 2, secrets) : undefined;
}
