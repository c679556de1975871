#!/usr/bin/env node
// Reference agent for examples/tasks/reply-in-thread.md: read the billing notice for the refund
// amount, reply to the customer in her own thread (threadId + In-Reply-To + References + Re:
// subject), then mark her mail read and file it under Refunds.
import { gmailFromEnv, header, plainText, rawMail, run, say } from "./lib/gmail.mjs";

run(async () => {
  const gmail = gmailFromEnv();
  const found = await gmail.users.messages.list({ userId: "me", q: "from:dana@customer.test in:inbox" });
  const first = found.data.messages?.[0];
  if (!first?.id) throw new Error("no mail from Dana in the inbox");
  const { data: request } = await gmail.users.messages.get({ userId: "me", id: first.id });

  const notices = await gmail.users.messages.list({ userId: "me", q: 'from:billing@northwind.test subject:"order #1234"' });
  const noticeId = notices.data.messages?.[0]?.id;
  if (!noticeId) throw new Error("no billing notice about order #1234");
  const { data: notice } = await gmail.users.messages.get({ userId: "me", id: noticeId });
  const amount = /\$\d+(?:\.\d{2})?/.exec(plainText(notice))?.[0];
  if (!amount) throw new Error("the billing notice names no amount");
  say(`refund of ${amount} found in the billing notice`);

  const messageId = header(request, "Message-ID");
  const subject = header(request, "Subject");
  await gmail.users.messages.send({
    userId: "me",
    requestBody: {
      threadId: request.threadId,
      raw: rawMail(
        {
          To: header(request, "From"),
          Subject: /^re:/i.test(subject) ? subject : `Re: ${subject}`,
          "In-Reply-To": messageId,
          References: messageId,
        },
        `Hi Dana,\r\n\r\nSorry about the double charge. We refunded the duplicate charge of ${amount} today; it takes 5-7 business days to appear.\r\n\r\nNorthwind Support`,
      ),
    },
  });
  const labels = await gmail.users.labels.list({ userId: "me" });
  const refunds = labels.data.labels?.find((l) => l.name === "Refunds")?.id;
  if (!refunds) throw new Error("no Refunds label");
  await gmail.users.messages.modify({ userId: "me", id: first.id, requestBody: { removeLabelIds: ["UNREAD"], addLabelIds: [refunds] } });
  say("replied in the thread, marked read and labelled");
});
