// Evidence blobs over signed URLs.
//   blobFileRoutes   (mounted at /_blobs, outside /v1): GET/HEAD a blob, PUT an upload. The URL's
//                    signature is the credential: tampered or expired answers 403.
//   blobUploadRoutes (mounted under /v1/sandboxes): POST /:id/uploads mints presigned PUT URLs for
//                    the tape and states a `source: "blob"` finalize grades.
import { Hono, type Context } from "hono";
import type { AppEnv } from "../app-env";
import { contentTypeForKey, plainBody } from "../blobs/content-type";
import { signBlobUrl, verifyBlobUrl, type BlobOperation } from "../blobs/sign";
import { MiB } from "../body";
import { fileServingHeaders } from "../../durable-objects/twins/kit/download-headers";
import { evidenceKey } from "../../durable-objects/evidence-keys";
import { redactBody } from "../../durable-objects/redact";
import { ApiError, notFound } from "../errors";
import { findSandbox } from "../sandbox-index";
import { apiOrigin } from "../urls";
import { fromStorage } from "../blobs/storage";

const UPLOAD_LIMIT = 32 * MiB;
const UPLOAD_TTL_SECONDS = 900;

async function authorize(c: Context<AppEnv>, op: BlobOperation): Promise<string> {
  const key = c.req.param("key") ?? "";
  const verdict = await verifyBlobUrl({
    secrets: c.get("settings").tokenSecrets,
    key,
    op,
    expires: c.req.query("expires"),
    sig: c.req.query("sig"),
  });
  if (verdict === "invalid") throw new ApiError("forbidden", "This link's signature is not valid", { reason: "invalid_signature" });
  if (verdict === "expired") throw new ApiError("forbidden", "This link has expired; mint a new one", { reason: "expired" });
  return key;
}

async function serve(c: Context<AppEnv>, withBody: boolean): Promise<Response> {
  const key = await authorize(c, "get");
  const object = await fromStorage(() => c.env.EVIDENCE.get(key));
  if (!object) throw new ApiError("not_found", "No blob is stored under this key", { reason: "blob_absent" });
  // Served exactly as stored: blobs are stored plain, so no Content-Encoding is ever claimed.
  const headers = new Headers({
    "content-type": object.httpMetadata?.contentType ?? contentTypeForKey(key),
    "content-length": String(object.size),
    "cache-control": "private, no-store",
    // An attachment that cannot run here, whatever it holds (see kit/download-headers.ts).
    ...fileServingHeaders(key.split("/").pop() || "blob"),
    etag: object.httpEtag,
  });
  return new Response(withBody ? object.body : null, { status: 200, headers });
}

export const blobFileRoutes = new Hono<AppEnv>()
  .get("/:key{.+}", (c) => serve(c, true))
  .on("HEAD", "/:key{.+}", (c) => serve(c, false))
  .put("/:key{.+}", async (c) => {
    const key = await authorize(c, "put");
    if (Number(c.req.header("content-length") ?? 0) > UPLOAD_LIMIT) throw tooLarge();
    const raw = await c.req.arrayBuffer();
    if (raw.byteLength > UPLOAD_LIMIT) throw tooLarge();
    let body: ArrayBuffer;
    try {
      body = await plainBody(raw, c.req.header("content-encoding"));
    } catch {
      throw new ApiError("bad_request", "The body declares Content-Encoding: gzip but is not gzip");
    }
    // Uploads are tapes (JSONL) and states (JSON): secrets are redacted on the decoded strings,
    // line by line for a tape, before they reach a blob.
    const decoded = new TextDecoder().decode(body);
    const text = key.endsWith(".jsonl") ? decoded.split("\n").map(redactBody).join("\n") : redactBody(decoded);
    await fromStorage(() => c.env.EVIDENCE.put(key, text, { httpMetadata: { contentType: contentTypeForKey(key) } }));
    return c.json({ key, size: new TextEncoder().encode(text).byteLength }, 201);
  });

const tooLarge = () => new ApiError("payload_too_large", `An upload is at most ${UPLOAD_LIMIT / MiB} MiB`, { limit_bytes: UPLOAD_LIMIT });

/** The blobs a `source: "blob"` finalize reads, and where each is uploaded. */
const UPLOADS = {
  trace: "upload/events.jsonl",
  state_initial: "upload/state_initial.json",
  state_final: "upload/state_final.json",
} as const;

export const blobUploadRoutes = new Hono<AppEnv>().post("/:id/uploads", async (c) => {
  const team = c.get("caller").team;
  const sandbox = await findSandbox(c.env, team.id, c.req.param("id"));
  if (!sandbox) throw notFound("Sandbox");
  const secret = c.get("settings").tokenSecret;
  const origin = apiOrigin(c);
  const entries = await Promise.all(
    Object.entries(UPLOADS).map(async ([blob, name]) => {
      const key = evidenceKey(team.id, sandbox.id, name);
      const signed = await signBlobUrl({ secret, origin, key, op: "put", ttlSeconds: UPLOAD_TTL_SECONDS });
      const upload = {
        key,
        url: signed.url,
        method: "PUT",
        headers: { "content-type": contentTypeForKey(key) },
        expires_in: signed.expiresIn,
        expires_at: new Date(signed.expires * 1000).toISOString(),
      };
      return [blob, upload] as const;
    }),
  );
  c.header("cache-control", "no-store");
  return c.json({
    session_id: sandbox.id,
    uploads: Object.fromEntries(entries),
    finalize_fields: {
      source: "blob",
      trace_storage_key: entries[0][1].key,
      state_initial_storage_key: entries[1][1].key,
      state_final_storage_key: entries[2][1].key,
    },
  });
});
