// pome doctor: config → API reachable → key valid → twin reachable → routing.
import { parseCommandLine } from "../lib/args.mjs";
import { ApiResponseError } from "../lib/api.mjs";
import { EXIT, usageError } from "../lib/errors.mjs";
import { STUB_TASK_SOURCE } from "../lib/task-file.mjs";

export const OPTIONS = { twin: { type: "string" } };

export const HELP = `pome doctor [--twin <twin>]    (default: the platform's default twin)

Checks, in order, that an examinee launched by pome would reach its twin and nothing else:
  config        where the API URL and key come from
  api           the API answers at that URL
  key           the key is accepted (GET /v1/me)
  twin          a fresh sandbox's twin answers its agent token (/_pome/health)
  routing       a call made the way an official client makes it (provider credential, the
                sandbox's own URL) reaches the twin and lands on its tape
The sandbox it starts is discarded afterwards. Stops at the first failure.

Exit: 0 all passed, 1 a check failed.`;

/**
 * A call an official client could make first: the twin's first GET route that takes no path
 * parameter, read from its own route list (`/_pome/openapi.json`), so no twin is named here.
 */
async function probePath(urls, agentToken) {
  const res = await fetch(urls.openapi_url ?? `${urls.api_url}/_pome/openapi.json`, {
    headers: { authorization: `Bearer ${agentToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  const spec = res.ok ? await res.json() : { paths: {} };
  return Object.entries(spec.paths ?? {}).find(([path, ops]) => !path.includes("{") && ops.get)?.[0] ?? "/";
}

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length) throw usageError("pome doctor takes no arguments");
  const { config, api, out } = ctx;
  const steps = [];
  const step = (name, ok, detail) => {
    steps.push({ name, ok, detail });
    out.progress(`${ok ? "✓" : "✗"} ${name.padEnd(8)} ${detail}`);
    return ok;
  };
  const finish = () => {
    const ok = steps.every((s) => s.ok);
    // The steps themselves were printed on stderr as they ran.
    out.result(ok ? "All checks passed." : `The ${steps.find((s) => !s.ok)?.name} check failed; see above.`, {
      ok,
      api_url: config.apiUrl,
      steps,
    });
    return ok ? EXIT.OK : EXIT.FAILED;
  };

  const keyShape = /^pme_/.test(config.apiKey) ? "" : " (it does not start with pme_: is it a team key?)";
  step(
    "config",
    true,
    `API ${config.apiUrl} (from ${config.sources.apiUrl}); key ${config.apiKey.slice(0, 8)}… (from ${config.sources.apiKey})${keyShape}`,
  );

  const started = Date.now();
  try {
    await fetch(`${config.apiUrl}/v1/me`, { signal: AbortSignal.timeout(10_000) });
    step("api", true, `${config.apiUrl} answers (${Date.now() - started} ms)`);
  } catch (err) {
    step(
      "api",
      false,
      `cannot reach ${config.apiUrl}: ${err.cause?.code ?? err.name}. Start the server (\`npm start\`) or set POME_API_URL`,
    );
    return finish();
  }

  try {
    const me = await api.get("/v1/me");
    step("key", true, `team ${me.team?.slug} (${me.team?.id}), key "${me.api_key?.name}"`);
  } catch (err) {
    step("key", false, err instanceof ApiResponseError ? `the key is refused (${err.status} ${err.type}); set POME_API_KEY` : err.message);
    return finish();
  }

  let sandbox;
  try {
    sandbox = await api.post("/v1/sandboxes", { ...(values.twin ? { twins: [values.twin] } : {}), task_source: STUB_TASK_SOURCE });
  } catch (err) {
    step("twin", false, `could not start a ${values.twin ?? "default"} sandbox: ${err.message}`);
    return finish();
  }
  const twin = values.twin ?? Object.keys(sandbox.per_twin ?? {})[0];
  try {
    const urls = sandbox.per_twin?.[twin];
    const health = await fetch(`${urls.api_url}/_pome/health`, {
      headers: { authorization: `Bearer ${sandbox.agent_token}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!step("twin", health.ok, `${urls.api_url} ${health.ok ? "answers" : `answered ${health.status}`}`)) return finish();
    await checkRouting(step, twin, sandbox, config.apiUrl);
  } finally {
    await api
      .deleteSandbox(sandbox.session_id, { discard: true })
      .catch((err) => out.warn(`could not discard sandbox ${sandbox.session_id}: ${err.message}`));
  }
  return finish();
}

async function checkRouting(step, twin, sandbox, apiUrl) {
  const urls = sandbox.per_twin[twin];
  const credential = sandbox.provider_credentials?.[twin];
  const probe = await probePath(urls, sandbox.agent_token);
  const sameHost = new URL(urls.api_url).host === new URL(apiUrl).host;
  const res = await fetch(`${urls.api_url}${probe}`, {
    headers: credential
      ? { [credential.header.toLowerCase()]: credential.scheme ? `${credential.scheme} ${credential.token}` : credential.token }
      : { authorization: `Bearer ${sandbox.agent_token}` },
    signal: AbortSignal.timeout(10_000),
  });
  const events = await fetch(`${urls.api_url}/_pome/events`, {
    headers: { authorization: `Bearer ${sandbox.agent_token}` },
    signal: AbortSignal.timeout(10_000),
  });
  const tape = events.ok ? await events.json() : [];
  const taped = Array.isArray(tape) && tape.some((row) => row.path === probe);
  step(
    "routing",
    taped,
    taped
      ? `GET ${probe} with the ${twin} credential reached the twin (${res.status}) and is on the tape${sameHost ? "" : `; note: twins are served from ${new URL(urls.api_url).host}`}`
      : `GET ${probe} with the ${twin} credential did not land on the sandbox's tape (answered ${res.status}): check the URL an agent is given`,
  );
}
