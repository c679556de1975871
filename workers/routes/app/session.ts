// The dashboard's key check. A browser cannot send the team key as a bearer on a page load, so the
// key is entered once into a form (POSTed, never in a URL) and kept in a session cookie: HttpOnly
// (page scripts cannot read it), SameSite=Strict (other sites cannot send it), scoped to /app, and
// without an expiry, so it ends with the browser session. Every page checks it exactly as /v1
// checks a bearer. In local development a browser without the cookie is the local team.
import type { Context } from "hono";
import { html } from "hono/html";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../app-env";
import { authenticateTeamKey, LOCAL_KEY } from "../../auth";
import { ApiError } from "../../errors";
import { requestUrl } from "../../urls";
import { layout } from "./layout";

export const KEY_COOKIE = "pome_key";

const secure = (c: Context<AppEnv>) => requestUrl(c).protocol === "https:";

/** Where to go after signing in: only a dashboard path on this origin. */
export function safeNext(value: unknown): string {
  return typeof value === "string" && /^\/app(?:[/?#]|$)/.test(value) && !value.startsWith("//") ? value : "/app/runs";
}

export function keyForm(c: Context<AppEnv>, message: string | null, status: 200 | 401 | 403, nextPath?: string) {
  const url = requestUrl(c);
  const next = safeNext(nextPath ?? url.pathname + url.search);
  const body = html`<h1>Sign in with your team API key</h1>
<p class="muted">The key is checked like a bearer on /v1 and kept for this browser session only (a cookie scripts cannot read).</p>
${message ? html`<p class="failed" role="alert">${message}</p>` : ""}
<form method="post" action="/app/login"><input type="hidden" name="next" value="${next}">
<label>Team API key <input name="key" type="password" autocomplete="off" placeholder="pme_…" required size="40"></label>
<button>Open the dashboard</button></form>`;
  return c.html(layout({ title: "Sign in", section: "runs", body, signedIn: false }), status);
}

/** Sets c.var.caller from the cookie (or the local team in development); else answers the key form. */
export const requireDashboardKey = createMiddleware<AppEnv>(async (c, next) => {
  // The CSP, framing and sniffing headers are security.ts's, on every /app answer.
  c.header("cache-control", "no-store");
  const settings = c.get("settings");
  const key = getCookie(c, KEY_COOKIE) ?? (settings.development ? LOCAL_KEY : undefined);
  if (!key) return keyForm(c, null, 401);
  try {
    c.set("caller", await authenticateTeamKey(c.env, key, { development: settings.development, localQuota: settings.defaultSessionQuota }));
  } catch (err) {
    if (!(err instanceof ApiError) || (err.type !== "unauthorized" && err.type !== "forbidden")) throw err;
    deleteCookie(c, KEY_COOKIE, { path: "/app" });
    return keyForm(
      c,
      err.type === "forbidden" ? "That key has been revoked." : "That key is not recognized.",
      err.type === "forbidden" ? 403 : 401,
    );
  }
  await next();
});

/** POST /app/login: check the key once, then keep it for the session. */
export async function login(c: Context<AppEnv>) {
  const form = await c.req.parseBody();
  const key = typeof form.key === "string" ? form.key.trim() : "";
  const settings = c.get("settings");
  try {
    await authenticateTeamKey(c.env, key, { development: settings.development, localQuota: settings.defaultSessionQuota });
  } catch (err) {
    if (!(err instanceof ApiError) || (err.type !== "unauthorized" && err.type !== "forbidden")) throw err;
    return keyForm(
      c,
      err.type === "forbidden" ? "That key has been revoked." : "That key is not recognized.",
      err.type === "forbidden" ? 403 : 401,
    );
  }
  setCookie(c, KEY_COOKIE, key, { path: "/app", httpOnly: true, sameSite: "Strict", secure: secure(c) });
  return c.redirect(safeNext(form.next), 303);
}

export function logout(c: Context<AppEnv>) {
  deleteCookie(c, KEY_COOKIE, { path: "/app" });
  return c.redirect("/app/runs", 303);
}
