// The judge for [model] criteria: one interface, several providers behind it.
import type { Criterion, GradingEvidence, TaskContext } from "../types";

export interface JudgeRequest {
  task: TaskContext;
  criterion: Criterion;
  evidence: GradingEvidence;
}

export type JudgeAnswer = { ok: true; verdict: "pass" | "fail"; reason: string } | { ok: false; detail: string };

export interface Judge {
  /** `<provider>:<model>`, stamped on the run as judge_model. */
  model: string;
  judge(request: JudgeRequest): Promise<JudgeAnswer>;
}

/** The two messages every provider is sent. */
export interface JudgePrompt {
  system: string;
  user: string;
}

/** A provider turns a prompt into the model's raw text; it throws on transport or HTTP failure. */
export interface JudgeProvider {
  name: "anthropic" | "openai" | "workers-ai";
  model: string;
  complete(prompt: JudgePrompt): Promise<string>;
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
