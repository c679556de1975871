// The platform as a user drives it over HTTP: create and discard sandboxes on the control plane,
// call the GitHub twin with the sandbox's agent token, read the tape, finalize.
import { describeFailure, jsonOf, request } from "./http.mjs";
import { OWNER, REPO } from "./worlds.mjs";

export const LOCAL_KEY = "pme_local_dev";
/** `# ..` in base64: the stub task a seed-only sandbox sends (the reference's own advice). */
const STUB_TASK = "IyAuLgo=";

export class BenchError extends Error {}

export function controlPlane(baseUrl) {
  const auth = { authorization: `Bearer ${LOCAL_KEY}` };
  const v1 = (path) => `${baseUrl}/v1${path}`;

  /** POST /v1/sandboxes; the raw reply, so a caller can time it and read a refusal. */
  const createRaw = (seed) =>
    request(v1("/sandboxes"), { method: "POST", headers: auth, body: { twins: ["github"], task_source: STUB_TASK, seed } });

  return {
    baseUrl,
    createRaw,

    /** Creates a sandbox or throws a BenchError naming the status. */
    async create(seed) {
      const reply = await createRaw(seed);
      if (reply.status !== 201) throw new BenchError(describeFailure("POST /v1/sandboxes", reply));
      return sandboxFrom(baseUrl, jsonOf(reply), reply.ms);
    },

    /** Deletes a sandbox, confirming the discard the first DELETE asks for. Never throws. */
    async discard(id) {
      const first = await request(v1(`/sandboxes/${id}`), { method: "DELETE", headers: auth });
      if (first.status !== 409) return first.status;
      const token = jsonOf(first)?.error?.details?.discard_token;
      if (!token) return first.status;
      const second = await request(v1(`/sandboxes/${id}?confirm_discard=${encodeURIComponent(token)}`), {
        method: "DELETE",
        headers: auth,
      });
      return second.status;
    },

    finalize(id, criteria) {
      return request(v1(`/sandboxes/${id}/finalize`), {
        method: "POST",
        headers: auth,
        body: { criteria, stop_reason: "bench", exit_code: 0, duration_ms: 1000, agent_model: "pome-bench" },
      });
    },
  };
}

function sandboxFrom(baseUrl, body, createMs) {
  const apiUrl = body?.per_twin?.github?.api_url;
  if (!body?.session_id || !apiUrl || !body.agent_token)
    throw new BenchError("POST /v1/sandboxes → 201 without session_id, agent_token or per_twin.github.api_url");
  const auth = { authorization: `Bearer ${body.agent_token}`, accept: "application/vnd.github+json" };
  const repo = `${apiUrl}/repos/${OWNER}/${REPO}`;
  return {
    id: body.session_id,
    apiUrl,
    createMs,
    floor: () => request(`${baseUrl}/_bench/floor/${body.session_id}`),
    getRepo: () => request(repo, { headers: auth }),
    readIssue: (n) => request(`${repo}/issues/${n}`, { headers: auth }),
    writeComment: (n, text) => request(`${repo}/issues/${n}/comments`, { method: "POST", headers: auth, body: { body: text } }),
    listIssues: (query = "per_page=30") => request(`${repo}/issues?${query}`, { headers: auth }),
    // Areas of round 3: an issue through GraphQL, and a blob written to the git database.
    graphqlIssue: (n) =>
      request(`${apiUrl}/graphql`, {
        method: "POST",
        headers: auth,
        body: {
          query:
            "query($owner: String!, $name: String!, $n: Int!) { repository(owner: $owner, name: $name) { issue(number: $n) { id title state labels(first: 5) { nodes { name } } } } }",
          variables: { owner: OWNER, name: REPO, n },
        },
      }),
    writeBlob: (n) =>
      request(`${repo}/git/blobs`, { method: "POST", headers: auth, body: { content: `bench blob ${n}\n`, encoding: "utf-8" } }),
    health: () => request(`${apiUrl}/_pome/health`, { headers: auth }),
    tape: () => request(`${apiUrl}/_pome/events`, { headers: auth }),
  };
}

/** What a twin call must answer for the bench to count it a success. */
export const EXPECTED_STATUS = {
  floor: 200,
  getRepo: 200,
  readIssue: 200,
  writeComment: 201,
  listIssues: 200,
  graphqlIssue: 200,
  writeBlob: 201,
};
