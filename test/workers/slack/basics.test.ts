// Identity, users and the wire: WebClient configured only with the sandbox's api_url and token.
import { describe, expect, it } from "vitest";
import { slackSandbox } from "./client";
import { acmeSeed } from "./fixtures";

describe("slack identity and users", () => {
  it("auth.test answers as the bot, with user and bot ids", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const me = await web.auth.test();
    expect(me).toMatchObject({ ok: true, team: "Acme", team_id: "T0ACME", user: "deploybot", user_id: "U0BOT", bot_id: "B0BOT", url: "https://acme.slack.com/" });
    expect(me.response_metadata?.scopes).toContain("chat:write");
  });
});
