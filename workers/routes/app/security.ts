// The dashboard's browser-side defences (issue 36, point 6), applied to every /app response:
// pages, the sign-in form, report.md, assets, refusals and redirects alike.
//   - A CSP that runs scripts from this origin only (no inline script: an injected <script> or
//     event attribute does nothing), lets no other site frame a page, and sends forms nowhere else.
//   - nosniff, so report.md or an answer of any type is never read as HTML or script.
//   - No Referer leaves a page (run ids and filters are in its URLs).
//   - Cross-site form posts refused before any handler runs: login CSRF (signing a victim in with
//     the attacker's key) and logout CSRF change nothing.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { html } from "hono/html";
import type { AppEnv } from "../../app-env";
import { dashboardOrigin, requestUrl } from "../../urls";
import { layout } from "./layout";

/**
 * Styles may stay inline (a score bar's width is a style attribute); scripts may not. `connect-src`
 * covers the Sandboxes page's refresh of its own rows; `img-src data:` the charts.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": DASHBOARD_CSP,
  // frame-ancestors for browsers that predate it.
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

/** Sets the dashboard's headers on whatever answer the route gave, a thrown error's included. */
export const dashboardHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(DASHBOARD_HEADERS)) c.res.headers.set(name, value);
});

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a state-changing request came from a page of this origin. The browser's own
 * `Sec-Fetch-Site` decides when it is sent (`same-origin`, or `none` for one the user started);
 * otherwise `Origin`, when sent, must be this origin. A request with neither is not a browser's
 * (every current browser sends one of them on a POST), so it carries no victim's cookie.
 * The same rule as Go 1.25's net/http CrossOriginProtection and hono's csrf middleware.
 */
export function isSameOriginRequest(headers: { secFetchSite?: string; origin?: string }, allowedOrigins: readonly string[]): boolean {
  const site = headers.secFetchSite?.trim().toLowerCase();
  if (site) return site === "same-origin" || site === "none";
  if (headers.origin === undefined) return true;
  return allowedOrigins.includes(headers.origin);
}

function crossSiteRefusal(c: Context<AppEnv>) {
  const body = html`<h1>Refused</h1><p class="failed" role="alert">This form was sent from another site, so nothing was changed.</p>
<p><a href="/app/runs">Open the dashboard</a></p>`;
  c.header("cache-control", "no-store");
  return c.html(layout({ title: "Refused", section: "runs", body, signedIn: false }), 403);
}

/** Refuses a cross-site POST (or any unsafe method) under /app with 403 before any handler runs. */
export const refuseCrossSite = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE_METHODS.has(c.req.method.toUpperCase())) return next();
  const allowed = [...new Set([requestUrl(c).origin, dashboardOrigin(c)])];
  if (!isSameOriginRequest({ secFetchSite: c.req.header("sec-fetch-site"), origin: c.req.header("origin") }, allowed))
    return crossSiteRefusal(c);
  await next();
});
