// Gmail's identifiers. Message and thread ids are up to 16 lowercase hex digits whose value is
// below 2^63; Gmail answers an id outside that range 400 `Invalid id value` and an unknown one in
// range 404 (measured: `abc123` is a 404, `ffffffffffffffff` and `not-a-message-id` are 400s).
import { fail, invalidId } from "./errors";

const MAX_ID = 2n ** 63n;

export function isGmailId(id: string): boolean {
  return /^[0-9a-f]{1,16}$/.test(id) && BigInt(`0x${id}`) < MAX_ID;
}

/** The id of a path or body, or the 400 Gmail answers for one it could never have issued. */
export const checkedId = (id: string): string => (isGmailId(id) ? id : fail(invalidId()));

/** Where generated message ids start: a value in the range real Gmail ids have today. */
export const FIRST_GENERATED_ID = 0x19a0000000000000n;

export const hexId = (value: bigint) => value.toString(16).padStart(16, "0");
