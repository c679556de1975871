// pome doctor: config → API reachable → key valid → twin reachable → routing.
import { parseCommandLine } from "../lib/args.mjs";
import { ApiResponseError, keyPlace } from "../lib/api.mjs";
import { EXIT, usageError } from "../lib/errors.mjs";

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
 * Calls an official client could make first: the twin's GET routes that take no path parameter,
 * read from its own route list (`/_pome/openapi.json`), so no twin is named here.
 */
async function probePaths(urls, agentToken) {
  const res = await fetch(urls.openapi_url ?? `${urls.api_url}/_pome/openapi.json`, {
    headers: { authorization: `Bearer ${agentToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  const spec = res.ok ? await res.json() : { paths: {} };
  const paths = Object.entries(spec.paths ?? {})
    .filter(([path, ops]) => !path.includes("{") && ops.get)
    .map(([path]) => path);
  return paths.length ? paths.slice(0, PROBES) : ["/"];
}

/** At most this many probe calls: the first route a twin answers with a success is enough. */
const PROBES = 5;

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length) throw usageError("pome doctor takes no arguments");
  const { config, api, out } = ctx;
  const steps = [];
  // A step passes (✓), fails (✗) and stops the walk, or passes with a warning (!): never a ✓
  // beside something the user should look at.
  const step = (name, ok, detail, warning = undefined) => {
    steps.push({ name, ok, detail, ...(warning ? { warning } : {}) });
    out.progress(`${stepMark(ok, warning)} ${name.padEnd(8)} ${detail}${warning ? ` (warning: ${warning})` : ""}`);
    return ok;
  };
  const finish = () => {
    const ok = steps.every((s) => s.ok);
    const warnings = steps.filter((s) => s.warning).length;
    const passed = warnings
      ? `All checks passed, with ${warnings} warning${warnings > 1 ? "s" : ""} (marked !) above.`
      : "All checks passed.";
    // The steps themselves were printed on stderr as they ran.
    out.result(ok ? passed : `The ${steps.find((s) => !s.ok)?.name} check failed; see above.`, {
      ok,
      api_url: config.apiUrl,
      steps,
    });
    return ok ? EXIT.OK : EXIT.FAILED;
  };

  step(
    "config",
    true,
    `API ${config.apiUrl} (from ${config.sources.apiUrl}); key ${config.apiKey.slice(0, 8)}… (from ${config.sources.apiKey})`,
    /^pme_/.test(config.apiKey) ? undefined : "the key does not start with pme_: is it a team key?",
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
    step(
      "key",
      false,
      err instanceof ApiResponseError
        ? `the key from ${config.sources.apiKey} is refused (${err.status} ${err.type}); check ${keyPlace(config.sources.apiKey)}`
        : err.message,
    );
    return finish();
  }

  let sandbox;
  try {
    // An ad-hoc sandbox: no task, so the probe never shows up as a task anywhere.
    sandbox = await api.post("/v1/sandboxes", { ...(values.twin ? { twins: [values.twin] } : {}) });
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
  const sameHost = new URL(urls.api_url).host === new URL(apiUrl).host;
  const headers = credential
    ? { [credential.header.toLowerCase()]: credential.scheme ? `${credential.scheme} ${credential.token}` : credential.token }
    : { authorization: `Bearer ${sandbox.agent_token}` };
  // The first route that answers a success; a twin that refuses every probe is reported with a warning.
  let probe;
  let res;
  for (probe of await probePaths(urls, sandbox.agent_token)) {
    res = await fetch(`${urls.api_url}${probe}`, { headers, signal: AbortSignal.timeout(10_000) });
    if (res.status < 400) break;
  }
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
      ? `GET ${probe} with the ${twin} credential reached the twin (${res.status}) and is on the tape`
      : `GET ${probe} with the ${twin} credential did not land on the sandbox's tape (answered ${res.status}): check the URL an agent is given`,
    taped ? routingWarning(res.status, urls.api_url, sameHost) : undefined,
  );
}

/** ✓ passed, ✗ failed, ! passed with something to look at. */
export const stepMark = (ok, warning) => (!ok ? "✗" : warning ? "!" : "✓");

/**
 * The probe reached the twin, but a 4xx means the twin refused it (a 404 for a path the world has
 * no object for, a 400 for a missing parameter): routing works, the answer is worth a look.
 */
function routingWarning(status, apiUrl, sameHost) {
  if (status >= 400) return `the twin refused this probe with ${status}: routing works, but the probe call did not succeed`;
  if (!sameHost) return `twins are served from ${new URL(apiUrl).host}`;
  return undefined;
}
