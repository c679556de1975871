// The asynchronous rest of normalizing a Gmail seed (the definition's completeSeed): raw mail
// whose MIME the structured form says in full becomes structured (postal-mime reads it, and it
// only reads asynchronously), and, given the sandbox clock, a message with no date of its own
// takes the clock's moment. The control plane completes without a clock and leaves dates to boot.
import { SeedProblems } from "../kit/seed";
import type { Clock, SeedResult } from "../types";
import { headerValue } from "./mime";
import { ParsedMail, parseRawField } from "./parse";
import { datedMessage, isRawMessage, type DraftMessage, type GmailMessage, type GmailSeed, type StructuredMessage } from "./seed";

type Body = Pick<StructuredMessage, "headers" | "text" | "html" | "attachments">;

/**
 * The structured body of raw mail, when that form reproduces it and seeds again as itself (it
 * needs a From header, as every structured message does); undefined when the mail stays raw.
 */
function structuredBody(parsed: ParsedMail): Body | undefined {
  if (!parsed.fits || !headerValue(parsed.content.headers, "From")) return undefined;
  const body: Body = { headers: parsed.content.headers };
  if (parsed.content.text !== undefined) body.text = parsed.content.text;
  if (parsed.content.html !== undefined) body.html = parsed.content.html;
  if (parsed.content.attachments.length) body.attachments = parsed.content.attachments;
  return body;
}

/** The structured body raw mail turns into, `raw` when it stays raw; undefined for structured mail. */
async function bodyOf(m: GmailMessage | DraftMessage, path: string, problems: SeedProblems): Promise<Body | "raw" | undefined> {
  if (!isRawMessage(m)) return undefined;
  const parsed = await parseRawField(m.raw).catch(() => "invalid" as const);
  if (parsed instanceof ParsedMail) return structuredBody(parsed) ?? "raw";
  problems.add(`${path}.raw`, "raw is base64url or base64 of an RFC 822 message (header lines, a blank line, the body)", "invalid_raw");
  return "raw";
}

async function completeMessage(m: GmailMessage, path: string, problems: SeedProblems, now?: number): Promise<GmailMessage> {
  const body = await bodyOf(m, path, problems);
  if (body === undefined || body === "raw") return datedMessage(m, now);
  const { id, threadId, labelIds, internalDate } = m;
  return datedMessage(
    internalDate === undefined ? { id, threadId, labelIds, ...body } : { id, threadId, labelIds, internalDate, ...body },
    now,
  );
}

async function completeDraft(m: DraftMessage, path: string, problems: SeedProblems, now?: number): Promise<DraftMessage> {
  const body = await bodyOf(m, path, problems);
  if (body === undefined || body === "raw") return datedMessage(m, now);
  const { id, threadId, internalDate } = m;
  return datedMessage(internalDate === undefined ? { id, threadId, ...body } : { id, threadId, internalDate, ...body }, now);
}

/** Completes a parsed seed; with the sandbox clock, what it decides is filled too. */
export async function completeGmailSeed(seed: GmailSeed, clock?: Clock): Promise<SeedResult<GmailSeed>> {
  const problems = new SeedProblems();
  // One moment for every message that has no date of its own.
  const now = clock?.now();
  const messages: GmailMessage[] = await Promise.all(seed.messages.map((m, i) => completeMessage(m, `messages[${i}]`, problems, now)));
  const drafts = await Promise.all(
    seed.drafts.map(
      async (d, i): Promise<GmailSeed["drafts"][number]> => ({
        ...d,
        message: await completeDraft(d.message, `drafts[${i}].message`, problems, now),
      }),
    ),
  );
  return problems.result<GmailSeed>({ ...seed, messages, drafts });
}

/** The same date rule at boot, for a seed booted without completion (it is a no-op after it). */
export function withDates(seed: GmailSeed, now: number): GmailSeed {
  return {
    ...seed,
    messages: seed.messages.map((m) => datedMessage(m, now)),
    drafts: seed.drafts.map((d) => ({ ...d, message: datedMessage(d.message, now) })),
  };
}
