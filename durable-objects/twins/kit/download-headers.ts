// The headers every stored file is served with. The platform serves uploads (a chat file at its
// private URL, an evidence blob) from the same origin as the dashboard, so a file must never run
// there: it is an attachment (the browser saves it rather than renders it), its type is never
// sniffed into HTML, and were it rendered anyway, the sandbox CSP gives it an opaque origin with
// no scripts, so it cannot read /app pages or send the dashboard's cookie.

/** A filename as a quoted-string token of RFC 6266: printable ASCII, `"` and `\` escaped, the rest `_`. */
function asciiFallback(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/[\\"]/g, (ch) => `\\${ch}`);
  return ascii.trim() ? ascii : "download";
}

/** RFC 5987 ext-value: UTF-8, every byte outside attr-char percent-encoded. */
const extValue = (name: string) =>
  `UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)}`;

/**
 * `Content-Disposition: attachment` with the name as a quoted ASCII fallback and, when it is not
 * plain ASCII, the exact name as `filename*` (RFC 6266 §4.3: a recipient prefers `filename*`).
 * Control characters and path separators never reach the header.
 */
export function attachmentDisposition(filename: string): string {
  const name =
    [...filename]
      .map((ch) => (ch.charCodeAt(0) < 0x20 || ch === "\x7f" || ch === "/" || ch === "\\" ? "_" : ch))
      .join("")
      .slice(0, 255) || "download";
  const fallback = asciiFallback(name);
  const plain = fallback === name.replace(/[\\"]/g, (ch) => `\\${ch}`);
  return plain ? `attachment; filename="${fallback}"` : `attachment; filename="${fallback}"; filename*=${extValue(name)}`;
}

/** The security headers of a served file, beside its content type. */
export function fileServingHeaders(filename: string): Record<string, string> {
  return {
    "content-disposition": attachmentDisposition(filename),
    "x-content-type-options": "nosniff",
    // `sandbox` without allow-scripts: no script runs, and the document's origin is opaque.
    "content-security-policy": "sandbox; default-src 'none'",
  };
}
