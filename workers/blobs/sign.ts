// Signed blob URLs. The Worker itself mints and verifies them: an HMAC over the operation, the
// storage key and the expiry, so a URL opens exactly one blob, for one operation, until it expires.
import { hmacBase62, timingSafeEqual } from "../ids";

/** How long a minted URL works. Callers read expires_in rather than assuming this. */
export const BLOB_URL_TTL_SECONDS = 300;
/** Where the Worker serves signed blob URLs: outside /v1, because the URL is its own credential. */
export const BLOB_PATH_PREFIX = "/_blobs";

export type BlobOperation = "get" | "put";

const SIGNATURE_LENGTH = 43;

const message = (op: BlobOperation, key: string, expires: number) => `pome-blob-url\n${op}\n${key}\n${expires}`;

/** A storage key as a URL path: each segment percent-encoded, slashes kept. */
export const keyToPath = (key: string) => key.split("/").map(encodeURIComponent).join("/");

export interface SignedUrl {
  url: string;
  /** Seconds since the epoch. */
  expires: number;
  expiresIn: number;
}

export async function signBlobUrl(opts: {
  secret: string;
  origin: string;
  key: string;
  op: BlobOperation;
  now?: number;
  ttlSeconds?: number;
}): Promise<SignedUrl> {
  const ttl = opts.ttlSeconds ?? BLOB_URL_TTL_SECONDS;
  const expires = Math.floor((opts.now ?? Date.now()) / 1000) + ttl;
  const sig = await hmacBase62(opts.secret, message(opts.op, opts.key, expires), SIGNATURE_LENGTH);
  const query = new URLSearchParams({ expires: String(expires), sig });
  if (opts.op === "put") query.set("op", "put");
  return { url: `${opts.origin}${BLOB_PATH_PREFIX}/${keyToPath(opts.key)}?${query}`, expires, expiresIn: ttl };
}

export type Verification = "ok" | "invalid" | "expired";

/**
 * The signature is checked before the expiry, so an edited expiry reads as tampering. `secrets`
 * are the accepted keys, current first: a URL minted before TOKEN_SECRET was rotated keeps working
 * until it expires.
 */
export async function verifyBlobUrl(opts: {
  secrets: readonly string[];
  key: string;
  op: BlobOperation;
  expires: string | undefined;
  sig: string | undefined;
  now?: number;
}): Promise<Verification> {
  if (!opts.expires || !opts.sig || !/^[0-9]{1,12}$/.test(opts.expires)) return "invalid";
  const expires = Number(opts.expires);
  const sig = opts.sig;
  let signed = false;
  for (const secret of opts.secrets) {
    if (timingSafeEqual(sig, await hmacBase62(secret, message(opts.op, opts.key, expires), SIGNATURE_LENGTH))) signed = true;
  }
  if (!signed) return "invalid";
  return (opts.now ?? Date.now()) >= expires * 1000 ? "expired" : "ok";
}
