// Reading and validating request bodies: 400 for what is not JSON, 413 over the limit, 422 for
// what misses the schema, each naming the failing field.
import type { Context } from "hono";
import type { z } from "zod";
import { formatPath } from "../durable-objects/twins/kit/seed";
import { ApiError } from "./errors";

export const MiB = 1024 * 1024;

export async function readJson(c: Context, limitBytes: number): Promise<unknown> {
  const declared = Number(c.req.header("content-length") ?? 0);
  if (declared > limitBytes) throw tooLarge(limitBytes);
  const text = await c.req.text();
  if (new TextEncoder().encode(text).length > limitBytes) throw tooLarge(limitBytes);
  if (!text.trim()) throw new ApiError("bad_request", "The request body is empty; send a JSON object");
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "The request body is not valid JSON");
  }
}

const tooLarge = (limit: number) =>
  new ApiError("payload_too_large", `The request body is larger than ${limit >= MiB ? `${limit / MiB} MiB` : `${limit / 1024} KiB`}`, {
    limit_bytes: limit,
  });

export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => {
    const path = formatPath(i.code === "unrecognized_keys" ? [...i.path, i.keys[0]] : i.path);
    return { path, message: i.code === "unrecognized_keys" ? `Unrecognized key: "${i.keys[0]}"` : i.message };
  });
  const first = issues[0];
  throw new ApiError("validation_failed", first.path ? `${first.path}: ${first.message}` : first.message, { issues });
}
