// Evidence storage (R2) failing is one thing to every caller: logged once here, and answered as
// `downstream_unavailable` (503), which tells the client to retry, never as an internal error.
import { ApiError } from "../errors";

/** The refusal an outage of evidence storage becomes. */
export function storageDown(err: unknown): ApiError {
  console.error("evidence storage failed", err);
  return new ApiError("downstream_unavailable", "Evidence storage could not be reached; retry");
}

/** Runs one storage operation; an outage becomes `storageDown`. */
export async function fromStorage<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    throw storageDown(err);
  }
}

/** A stored object's text, or undefined when nothing is stored under `key`. */
export async function storedText(bucket: R2Bucket, key: string | null | undefined): Promise<string | undefined> {
  if (!key) return undefined;
  return fromStorage(async () => {
    const object = await bucket.get(key);
    return object ? await object.text() : undefined;
  });
}
