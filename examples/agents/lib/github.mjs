// What every example agent shares: an Octokit pointed at the sandbox's GitHub twin, configured
// from the environment `pome run` gives the examinee, exactly as it would point at github.com.
import { Octokit } from "@octokit/rest";

export function githubFromEnv() {
  const baseUrl = process.env.POME_GITHUB_REST_URL;
  const auth = process.env.POME_AUTH_TOKEN;
  if (!baseUrl || !auth) {
    console.error("agent: POME_GITHUB_REST_URL and POME_AUTH_TOKEN must be set; run me through `pome run <task.md> -- node <agent>`");
    process.exit(2);
  }
  return new Octokit({ baseUrl, auth, userAgent: "pome-example-agent" });
}

/** Progress goes to stderr; an agent's stdout is its own business. */
export const say = (...parts) => console.error("agent:", ...parts);

export const decodeContent = (file) => Buffer.from(file.content, file.encoding === "base64" ? "base64" : "utf8").toString("utf8");

/** Runs an agent's main function and turns a failure into a non-zero exit with a readable line. */
export function run(main) {
  main().catch((err) => {
    console.error(`agent: failed: ${err.status ? `${err.status} ` : ""}${err.message}`);
    process.exit(1);
  });
}
