// users.watch and users.stop: push notifications of mailbox changes to a Pub/Sub topic.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { gmailRoute, labelIds } from "../declare";
import { badRequest, fail, gError, gJson, gNoContent } from "../errors";
import { labelExists } from "../store/messages";
import { startWatch, stopWatch } from "../store/watch";
import { checkKeys } from "./identities";

/** Gmail's own check of the topic's form (its 400 names the pattern). */
const TOPIC = /^projects\/[^/]+\/topics\/[^/]+$/;

const BEHAVIORS = ["include", "exclude"] as const;

/** A watch request; every key is kept so the handler refuses one Gmail does not know by name. */
const watchBody = z
  .looseObject({
    topicName: z.string().optional().describe("The Pub/Sub topic, projects/{project}/topics/{topic}"),
    labelIds: labelIds.describe("Push only changes to messages with these labels"),
    labelFilterBehavior: z.enum(BEHAVIORS).optional().describe("include (default) or exclude the labels"),
    // The older name of labelFilterBehavior; Gmail takes both, and reads it only without the newer one.
    labelFilterAction: z.string().optional().describe("The older name of labelFilterBehavior: include or exclude"),
  })
  .default({});

function olderBehavior(value: string | undefined): (typeof BEHAVIORS)[number] | undefined {
  if (value === undefined) return undefined;
  return (
    BEHAVIORS.find((b) => b === value) ?? fail(gError(400, `Invalid value at 'labelFilterAction', ${JSON.stringify(value)}`, "invalid"))
  );
}

function watch(ctx: TwinContext, body: z.output<typeof watchBody>) {
  checkKeys(body, ["topicName", "labelIds", "labelFilterBehavior", "labelFilterAction"], "watch_request");
  const topicName = body.topicName ?? "";
  if (!TOPIC.test(topicName)) return fail(badRequest("Invalid topicName does not match projects/SOME-ANDROID-PROJECT/topics/*"));
  const labelIds = body.labelIds ?? [];
  for (const id of labelIds) if (!labelExists(ctx.db, id)) fail(badRequest(`Invalid label: ${id}`));
  const behavior = body.labelFilterBehavior ?? olderBehavior(body.labelFilterAction);
  const started = startWatch(
    ctx.db,
    { topicName, ...(labelIds.length ? { labelIds } : {}), ...(behavior ? { labelFilterBehavior: behavior } : {}) },
    ctx.clock.now(),
  );
  return gJson(200, { historyId: started.historyId, expiration: started.expiration });
}

export const watchRoutes: readonly Route[] = [
  gmailRoute({
    method: "POST",
    path: "/watch",
    operation: "gmail.users.watch",
    summary: "Push mailbox changes to a Pub/Sub topic",
    body: watchBody,
    handler: (ctx, { body }) => watch(ctx, body),
  }),
  gmailRoute({
    method: "POST",
    path: "/stop",
    operation: "gmail.users.stop",
    summary: "Stop push notifications",
    handler: (ctx) => {
      stopWatch(ctx.db);
      return gNoContent();
    },
  }),
];
