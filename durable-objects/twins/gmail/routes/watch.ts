// users.watch and users.stop: push notifications of mailbox changes to a Pub/Sub topic.
import type { Route, TwinContext } from "../../types";
import { gmailRoute, jsonBody } from "../context";
import { badRequest, fail, gJson, gNoContent, readers } from "../errors";
import { labelExists } from "../store/messages";
import { startWatch, stopWatch } from "../store/watch";
import { checkKeys } from "./identities";

/** Gmail's own check of the topic's form (its 400 names the pattern). */
const TOPIC = /^projects\/[^/]+\/topics\/[^/]+$/;

function watch(ctx: TwinContext) {
  const body = jsonBody(ctx);
  checkKeys(body, ["topicName", "labelIds", "labelFilterBehavior", "labelFilterAction"], "watch_request");
  const topicName = readers.optString(body, "topicName") ?? "";
  if (!TOPIC.test(topicName)) return fail(badRequest("Invalid topicName does not match projects/SOME-ANDROID-PROJECT/topics/*"));
  const labelIds = readers.optStringArray(body, "labelIds") ?? [];
  for (const id of labelIds) if (!labelExists(ctx.db, id)) fail(badRequest(`Invalid label: ${id}`));
  // labelFilterAction is the older name of labelFilterBehavior; Gmail takes both.
  const behavior =
    readers.oneOf(body.labelFilterBehavior, ["include", "exclude"] as const, "watch_request", "labelFilterBehavior") ??
    readers.oneOf(body.labelFilterAction, ["include", "exclude"] as const, "watch_request", "labelFilterAction");
  const started = startWatch(
    ctx.db,
    { topicName, ...(labelIds.length ? { labelIds } : {}), ...(behavior ? { labelFilterBehavior: behavior } : {}) },
    ctx.clock.now(),
  );
  return gJson(200, { historyId: started.historyId, expiration: started.expiration });
}

export const watchRoutes: readonly Route[] = [
  gmailRoute("POST", "/watch", "gmail.users.watch", "Push mailbox changes to a Pub/Sub topic", watch),
  gmailRoute("POST", "/stop", "gmail.users.stop", "Stop push notifications", (ctx) => {
    stopWatch(ctx.db);
    return gNoContent();
  }),
];
