// The largest answer one twin call may give, and so the largest response body one tape row
// holds. The Reliability section of the README states these numbers:
//
// - request body: at most 1 MiB (workers/twin-limits.ts TWIN_BODY_LIMIT_BYTES), refused before
//   the twin reads it;
// - response body: at most MAX_RESPONSE_BODY_BYTES (8 MiB, measured in UTF-8 bytes of the body
//   as sent; a file download counts its base64 text). Over it, dispatch() answers the twin's own
//   `responseTooLarge` refusal instead (a 4xx in the vendor's shape), tapes that refusal, and
//   rolls back whatever the call wrote: the oversized body is never stored or sent.
// - so one tape row holds at most about 9 MiB of bodies (request + response) plus its headers
//   and path; a body over 512 Ki characters is split across `_tape_parts` (durable-objects/tape.ts).
//
// 8 MiB is over anything a seed can describe in one object (seeds are at most 4 MiB; base64 adds
// a third) and under the 32 MiB a Durable Object RPC may carry. Routes are bounded well below it
// by their page sizes: REST lists by the vendor's page limit, a GraphQL twin by its vendor's complexity
// limit (kit/graphql-limits.ts), and its resolvers may also stop building an answer past this many
// characters of text.
export const MAX_RESPONSE_BODY_BYTES = 8 * 1024 * 1024;

/** Whether a body is over `limit` bytes in UTF-8, without encoding it when its length decides. */
export function overBytes(body: string, limit: number): boolean {
  if (body.length > limit) return true;
  if (body.length * 3 <= limit) return false;
  return new TextEncoder().encode(body).length > limit;
}
