// The three judge providers. Each is a thin adapter: build the provider's request, return the
// model's text. Fetch is injected so tests answer from a local fake and never touch the network.
import type { FetchLike, JudgePrompt, JudgeProvider } from "./types";

const MAX_TOKENS = 512;

async function postJson(fetchImpl: FetchLike, url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const res = await fetchImpl(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`judge provider answered ${res.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error("judge provider answered with a body that is not JSON");
  }
}

const isRec = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const trimSlash = (url: string) => url.replace(/\/+$/, "");

export interface HttpProviderOptions {
  model: string;
  apiKey: string | undefined;
  baseUrl?: string;
  fetch?: FetchLike;
}

/** Anthropic's Messages API. */
export function anthropicProvider(opts: HttpProviderOptions): JudgeProvider {
  const fetchImpl = opts.fetch ?? ((input, init) => fetch(input, init));
  const base = trimSlash(opts.baseUrl || "https://api.anthropic.com");
  return {
    name: "anthropic",
    model: opts.model,
    async complete(prompt: JudgePrompt) {
      const body = await postJson(
        fetchImpl,
        `${base}/v1/messages`,
        { "x-api-key": opts.apiKey ?? "", "anthropic-version": "2023-06-01" },
        {
          model: opts.model,
          max_tokens: MAX_TOKENS,
          temperature: 0,
          system: prompt.system,
          messages: [{ role: "user", content: prompt.user }],
        },
      );
      const content = isRec(body) && Array.isArray(body.content) ? body.content : [];
      const text = content
        .map((block) => (isRec(block) && block.type === "text" && typeof block.text === "string" ? block.text : ""))
        .join("");
      if (!text) throw new Error("Anthropic answered with no text content");
      return text;
    },
  };
}

/** Any OpenAI-compatible chat completions endpoint (OpenAI, a gateway, a local server). */
export function openAiProvider(opts: HttpProviderOptions): JudgeProvider {
  const fetchImpl = opts.fetch ?? ((input, init) => fetch(input, init));
  const base = trimSlash(opts.baseUrl || "https://api.openai.com/v1");
  return {
    name: "openai",
    model: opts.model,
    async complete(prompt: JudgePrompt) {
      const headers: Record<string, string> = opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {};
      const body = await postJson(fetchImpl, `${base}/chat/completions`, headers, {
        model: opts.model,
        temperature: 0,
        max_tokens: MAX_TOKENS,
        messages: [
          { role: "system", content: prompt.system },
          { role: "user", content: prompt.user },
        ],
      });
      const choice = isRec(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
      const message = isRec(choice) ? choice.message : undefined;
      const text = isRec(message) && typeof message.content === "string" ? message.content : "";
      if (!text) throw new Error("the chat completion carried no message content");
      return text;
    },
  };
}

export interface WorkersAiBinding {
  run(model: string, input: unknown): Promise<unknown>;
}

/** The Workers AI binding (`env.AI`). */
export function workersAiProvider(opts: { model: string; ai: WorkersAiBinding }): JudgeProvider {
  return {
    name: "workers-ai",
    model: opts.model,
    async complete(prompt: JudgePrompt) {
      const out = await opts.ai.run(opts.model, {
        max_tokens: MAX_TOKENS,
        temperature: 0,
        messages: [
          { role: "system", content: prompt.system },
          { role: "user", content: prompt.user },
        ],
      });
      // Text models answer { response: string }; some answer an already-parsed JSON object.
      const response = isRec(out) ? out.response : out;
      if (typeof response === "string" && response) return response;
      if (isRec(response)) return JSON.stringify(response);
      throw new Error("Workers AI answered with no response text");
    },
  };
}
