// The workers tests' half of conformance: every sandbox a test makes through `createSandbox` is
// remembered, and after the test its tapes go to the `CONFORMANCE` service binding (Node, where
// the vendors' schemas compile: test/conformance/collector.ts). A difference from the vendor's
// published schema that the twin does not declare fails the test that produced the answer.
import { env, SELF } from "cloudflare:test";

interface Remembered {
  session_id: string;
  agent_token: string;
  per_twin: Record<string, { api_url: string }>;
}

interface Verdict {
  validated: number;
  undeclared: string[];
}

declare global {
  namespace Cloudflare {
    interface Env {
      CONFORMANCE: Fetcher;
    }
  }
}

const made: Remembered[] = [];

export function rememberSandbox(sandbox: Remembered): void {
  made.push(sandbox);
}

/**
 * The undeclared differences in the tapes of every sandbox made since the last call. A tape that
 * can no longer be read (the test discarded its sandbox, or took its credentials away) is skipped:
 * what it held was the test's own business. The first page (1,000 rows) of each tape is read.
 */
export async function undeclaredDifferences(): Promise<string[]> {
  const out: string[] = [];
  for (const sandbox of made.splice(0)) {
    for (const [twin, { api_url }] of Object.entries(sandbox.per_twin)) {
      const res = await SELF.fetch(`${api_url}/_pome/events`, { headers: { authorization: `Bearer ${sandbox.agent_token}` } });
      if (res.status !== 200) {
        await res.body?.cancel();
        continue;
      }
      const rows = await res.text();
      const measured = await env.CONFORMANCE.fetch("http://conformance.invalid/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"twin":${JSON.stringify(twin)},"rows":${rows}}`,
      });
      if (measured.status === 204) continue; // a twin with no published schema measured yet (see collector.ts)
      const verdict = (await measured.json()) as Verdict;
      for (const d of verdict.undeclared) out.push(`${twin} ${sandbox.session_id}: ${d}`);
    }
  }
  return out;
}
