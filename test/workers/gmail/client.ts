// googleapis' Gmail client pointed at a sandbox, inside workerd: requests go through the router
// (SELF) on the credential-routed root form, as a user's client does. Retries are off.
import { SELF } from "cloudflare:test";
import { OAuth2Client } from "google-auth-library";
import { gmail_v1 } from "googleapis/build/src/apis/gmail/v1";
import { ORIGIN, createSandbox, twinFetch, type CreatedSandbox } from "../helpers";

const selfFetch = (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(new Request(input as RequestInfo, init));

export function gmailFor(sandbox: CreatedSandbox, token = sandbox.provider_credentials.gmail.token): gmail_v1.Gmail {
  const auth = new OAuth2Client();
  auth.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 });
  return new gmail_v1.Gmail({ auth, rootUrl: `${ORIGIN}/`, retry: false, fetchImplementation: selfFetch });
}

export async function gmailSandbox(seed?: unknown) {
  const sandbox = await createSandbox(seed === undefined ? { twins: ["gmail"] } : { twins: ["gmail"], seed });
  return { sandbox, gmail: gmailFor(sandbox) };
}

export const gmailState = async (sandbox: CreatedSandbox) =>
  (await twinFetch(sandbox, "/_pome/state", {}, "gmail")).json<Record<string, unknown>>();
export const gmailTape = async (sandbox: CreatedSandbox) =>
  (await twinFetch(sandbox, "/_pome/events", {}, "gmail")).json<
    { operation: string; status: number; mutated: boolean; fidelity: string; path: string }[]
  >();

/** base64url of an RFC 822 text, as Gmail's `raw` takes it. */
export const raw = (lines: string[]) =>
  btoa(unescape(encodeURIComponent(lines.join("\r\n"))))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** The error a googleapis call rejected with: status and Google's error body. */
export async function gError(
  p: Promise<unknown>,
): Promise<{ status: number; error: { code: number; message: string; status: string; errors: { reason: string }[] } }> {
  try {
    await p;
  } catch (err) {
    const e = err as { status?: number; response?: { data?: { error?: never } } };
    return { status: e.status ?? 0, error: e.response?.data?.error ?? ({} as never) };
  }
  throw new Error("the call succeeded");
}
