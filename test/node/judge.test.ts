// The LLM judge end to end: the real dev server, configured by settings alone, asks a local fake
// provider (a real HTTP server on 127.0.0.1) to grade a [model] criterion, for each HTTP provider.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_KEY, freePort, startDevServer, type DevServer } from "./server";

interface Seen {
  path: string;
  headers: IncomingMessage["headers"];
  body: { model?: string; messages?: { content: string }[]; system?: string };
}

/** Answers like Anthropic's Messages API and OpenAI's chat completions, with a scripted verdict. */
async function fakeProvider(verdict: () => string) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      seen.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(raw) as Seen["body"] });
      const text = verdict();
      const body =
        req.url === "/v1/messages"
          ? { content: [{ type: "text", text }] }
          : { choices: [{ message: { role: "assistant", content: text } }] };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { seen, url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

const TASK = [
  "# Explain the triage",
  "",
  "## Prompt",
  "Comment on issue #1 in acme/api explaining the bug.",
  "",
  "## Success Criteria",
  "- [model] The comment explains why the timeout is a bug",
  "",
].join("\n");

async function gradedRun(api: string) {
  const headers = { authorization: `Bearer ${LOCAL_KEY}`, "content-type": "application/json" };
  const created = (await (
    await fetch(`${api}/v1/sandboxes`, {
      method: "POST",
      headers,
      body: JSON.stringify({ task_source: Buffer.from(TASK).toString("base64") }),
    })
  ).json()) as { session_id: string; agent_token: string; per_twin: { github: { api_url: string } } };
  await fetch(`${created.per_twin.github.api_url}/repos/acme/api/issues/1/comments`, {
    method: "POST",
    headers: { authorization: `Bearer ${created.agent_token}` },
    body: JSON.stringify({ body: "Timeouts at 10 s break long reports: a bug." }),
  });
  const res = await fetch(`${api}/v1/sandboxes/${created.session_id}/finalize`, {
    method: "POST",
    headers,
    body: JSON.stringify({ stop_reason: "done", exit_code: 0, duration_ms: 10, agent_model: "test" }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { score: number | null; judge_model: string | null; criteria_results: { status: string; reason: string }[] };
}

for (const provider of ["openai", "anthropic"] as const) {
  describe(`the ${provider} judge grades [model] criteria through a local provider`, () => {
    let dev: DevServer;
    let fake: Awaited<ReturnType<typeof fakeProvider>>;
    let answers: string[];

    beforeAll(async () => {
      answers = [];
      fake = await fakeProvider(() => answers.shift() ?? "no verdict here");
      const vars = {
        JUDGE_PROVIDER: provider,
        JUDGE_MODEL: "judge-test-model",
        JUDGE_BASE_URL: provider === "openai" ? `${fake.url}/v1` : fake.url,
        JUDGE_API_KEY: "sk-judge-test",
      };
      dev = await startDevServer({ args: Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]) });
    });
    afterAll(async () => {
      await dev?.stop();
      await fake?.close();
    });

    it("passes a criterion the judge accepts, naming its reason and model", async () => {
      answers.push('{"verdict":"pass","reason":"The comment says the 10 s timeout breaks long reports."}');
      const run = await gradedRun(dev.url);
      expect(run.judge_model).toBe(`${provider}:judge-test-model`);
      expect(run.criteria_results[0]).toMatchObject({ status: "passed", reason: expect.stringContaining("10 s timeout") });
      const request = fake.seen.at(-1);
      expect(request?.path).toBe(provider === "openai" ? "/v1/chat/completions" : "/v1/messages");
      expect(request?.body.model).toBe("judge-test-model");
      if (provider === "anthropic") expect(request?.headers["x-api-key"]).toBe("sk-judge-test");
      else expect(request?.headers.authorization).toBe("Bearer sk-judge-test");
      // The judge saw the task, the criterion and the tape.
      expect(JSON.stringify(request?.body)).toContain("explains why the timeout is a bug");
      expect(JSON.stringify(request?.body)).toContain("issues.createComment");
    });

    it("asks again once after a malformed answer, then skips judge_unavailable", async () => {
      answers.push("I think it is fine", '{"verdict":"fail","reason":"No reasoning in the comment."}');
      const retried = await gradedRun(dev.url);
      expect(retried.criteria_results[0]).toMatchObject({ status: "failed" });
      answers.push("still not json", "nor this");
      const skipped = await gradedRun(dev.url);
      expect(skipped.criteria_results[0].status).toBe("skipped");
      expect(skipped.criteria_results[0].reason).toMatch(/^judge_unavailable/);
      expect(skipped.score).toBeNull();
    });
  });
}
