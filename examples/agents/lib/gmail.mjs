// What the Gmail example agents share: googleapis pointed at the sandbox's Gmail twin, configured
// from the environment `pome run` gives the examinee. googleapis keeps only the origin of its
// rootUrl, so the agent passes the origin; the provider token names the sandbox.
import { google } from "googleapis";

export function gmailFromEnv() {
  const restUrl = process.env.POME_GMAIL_REST_URL;
  const token = process.env.POME_GMAIL_TOKEN;
  if (!restUrl || !token) {
    console.error("agent: POME_GMAIL_REST_URL and POME_GMAIL_TOKEN must be set; run me through `pome run <task.md> -- node <agent>`");
    process.exit(2);
  }
  const auth = new google.auth.OAuth2();
  auth.setCredentials({ access_token: token, expiry_date: Date.now() + 3600_000 });
  return google.gmail({ version: "v1", auth, rootUrl: `${new URL(restUrl).origin}/`, retry: false });
}

/** An RFC 822 message as Gmail's `raw` takes it (base64url). */
export function rawMail(headers, body) {
  const lines = [...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), "", body];
  return Buffer.from(lines.join("\r\n"), "utf8").toString("base64url");
}

export const header = (message, name) => message.payload?.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value ?? "";

/** The plain-text body of a `format: full` message. */
export function plainText(message) {
  const walk = (part) => {
    if (part?.mimeType === "text/plain" && part.body?.data) return Buffer.from(part.body.data, "base64url").toString("utf8");
    for (const p of part?.parts ?? []) {
      const text = walk(p);
      if (text) return text;
    }
    return "";
  };
  return walk(message.payload);
}

export const say = (...parts) => console.error("agent:", ...parts);

export function run(main) {
  main().catch((err) => {
    console.error(`agent: failed: ${err.status ? `${err.status} ` : ""}${err.message}`);
    process.exit(1);
  });
}
