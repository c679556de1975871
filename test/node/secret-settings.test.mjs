// Issue 36, point 7, without a server: how the start-up block and the log filter treat a secret
// setting, whichever way it was given (--var, .dev.vars, .env, the environment).
import { describe, expect, it } from "vitest";
import { describeSetting, isSecretSetting, loadedSecretSettings, maskSecrets, secretValues, startupBlock } from "../../scripts/local.mjs";

describe("a secret setting is shown by its name and source, never its value", () => {
  it("knows every secret setting of the platform, and any setting named like one", () => {
    for (const name of ["TOKEN_SECRET", "TOKEN_SECRET_PREVIOUS", "ADMIN_SECRET", "JUDGE_API_KEY", "SOME_PASSWORD", "OTHER_API_KEY"])
      expect(isSecretSetting(name), name).toBe(true);
    for (const name of ["JUDGE_PROVIDER", "JUDGE_MODEL", "JUDGE_BASE_URL", "ENVIRONMENT", "PUBLIC_ORIGIN", "DEFAULT_SESSION_QUOTA"])
      expect(isSecretSetting(name), name).toBe(false);
  });

  it("writes a plain setting as NAME=value and a secret as its name and where it came from", () => {
    expect(describeSetting("JUDGE_PROVIDER", "openai", "--var")).toBe("JUDGE_PROVIDER=openai");
    expect(describeSetting("JUDGE_API_KEY", "sk-live-123", "--var")).toBe("JUDGE_API_KEY (secret, from --var)");
  });

  it("names secrets wrangler loaded from the environment with their source, in the start-up block", () => {
    const loaded = loadedSecretSettings(
      { ADMIN_SECRET: "a-value", ENVIRONMENT: "development" },
      { CLOUDFLARE_INCLUDE_PROCESS_ENV: "true", ADMIN_SECRET: "a-value" },
    );
    expect(loaded).toEqual([{ name: "ADMIN_SECRET", source: expect.stringMatching(/^(the environment|\.dev\.vars)$/) }]);
    const block = startupBlock({
      url: "http://127.0.0.1:1",
      mode: "test",
      stateDir: "/tmp/x",
      migrations: "1",
      vars: { JUDGE_API_KEY: "sk-live-123" },
      loadedSecrets: loaded,
    });
    expect(block).toContain("JUDGE_API_KEY (secret, from --var)");
    expect(block).toContain("ADMIN_SECRET (secret, from ");
    expect(block).not.toContain("sk-live-123");
    expect(block).not.toContain("a-value");
  });

  it("masks the value of a secret setting in any output line", () => {
    const secrets = secretValues({ JUDGE_API_KEY: "sk-live-123", JUDGE_PROVIDER: "openai" });
    expect(secrets).toEqual(["sk-live-123"]);
    expect(maskSecrets("provider said: bad key sk-live-123 (sk-live-123)", secrets)).toBe("provider said: bad key [REDACTED] ([REDACTED])");
    expect(maskSecrets("openai answered", secrets)).toBe("openai answered");
  });
});
