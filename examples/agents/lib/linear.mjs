// What the Linear example agents share: the official @linear/sdk client pointed at the sandbox's
// Linear twin from the environment `pome run` gives the examinee, as it would point at Linear.
import { LinearClient } from "@linear/sdk";

export function linearFromEnv() {
  const base = process.env.POME_LINEAR_REST_URL;
  const apiKey = process.env.POME_LINEAR_TOKEN;
  if (!base || !apiKey) {
    console.error("agent: POME_LINEAR_REST_URL and POME_LINEAR_TOKEN must be set; run me through `pome run <task.md> -- node <agent>`");
    process.exit(2);
  }
  return new LinearClient({ apiKey, apiUrl: `${base}/graphql` });
}

export { run, say } from "./github.mjs";
