// What the Slack example agents share: @slack/web-api's WebClient pointed at the sandbox's Slack
// twin from the environment `pome run` gives the examinee, exactly as it would point at slack.com.
import { LogLevel, WebClient } from "@slack/web-api";

export function slackFromEnv() {
  const url = process.env.POME_SLACK_REST_URL;
  const token = process.env.POME_SLACK_TOKEN;
  if (!url || !token) {
    console.error("agent: POME_SLACK_REST_URL and POME_SLACK_TOKEN must be set; run me through `pome run <task.md> -- node <agent>`");
    process.exit(2);
  }
  return new WebClient(token, { slackApiUrl: `${url}/api/`, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true, logLevel: LogLevel.ERROR });
}

export const say = (...parts) => console.error("agent:", ...parts);

export function run(main) {
  main().catch((err) => {
    console.error(`agent: failed: ${err.data?.error ?? err.message}`);
    process.exit(1);
  });
}
