#!/usr/bin/env node
// Reference agent for examples/tasks/ask-the-carrier.md: ask the carrier (retrying a rate-limited
// send, which changed nothing), wait for the carrier's reply in the inbox, and save a draft to
// the customer quoting it. It does not send the draft.
import { gmailFromEnv, header, plainText, rawMail, run, say } from "./lib/gmail.mjs";

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** Gmail answers 429 when it sheds load; the call changed nothing, so it is safe to repeat. */
async function withRetry(call) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if ((err.status !== 429 && err.status !== 503) || attempt === 5) throw err;
      say(`rate-limited (${err.status}); retrying`);
      await pause(100 * attempt);
    }
  }
}

run(async () => {
  const gmail = gmailFromEnv();
  const asked = await gmail.users.messages.list({ userId: "me", q: "from:alex@customer.test parcel" });
  const askId = asked.data.messages?.[0]?.id;
  if (!askId) throw new Error("no question from Alex about a parcel");
  const { data: question } = await gmail.users.messages.get({ userId: "me", id: askId });

  await withRetry(() =>
    gmail.users.messages.send({
      userId: "me",
      requestBody: {
        raw: rawMail(
          { To: "carrier@shipping.test", Subject: "Parcel 1234: ship date?" },
          "Hello, when does parcel 1234 ship? Thanks, Northwind Support",
        ),
      },
    }),
  );
  say("asked the carrier");

  let replyId;
  for (let i = 0; i < 10 && !replyId; i++) {
    const inbox = await gmail.users.messages.list({ userId: "me", q: "from:carrier@shipping.test in:inbox" });
    replyId = inbox.data.messages?.[0]?.id;
    if (!replyId) await pause(100);
  }
  if (!replyId) throw new Error("the carrier did not answer");
  const { data: reply } = await gmail.users.messages.get({ userId: "me", id: replyId });
  const answer = plainText(reply).trim();
  say(`the carrier says: ${answer}`);

  const subject = header(question, "Subject");
  const messageId = header(question, "Message-ID");
  await gmail.users.drafts.create({
    userId: "me",
    requestBody: {
      message: {
        threadId: question.threadId,
        raw: rawMail(
          {
            To: header(question, "From"),
            Subject: /^re:/i.test(subject) ? subject : `Re: ${subject}`,
            "In-Reply-To": messageId,
            References: messageId,
          },
          `Hi Alex,\r\n\r\nI checked with our carrier: "${answer}"\r\n\r\nNorthwind Support`,
        ),
      },
    },
  });
  say("saved a draft for Alex");
});
