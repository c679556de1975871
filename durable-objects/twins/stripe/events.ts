// Events for every state change, listable at /v1/events, and their webhooks: each enabled
// endpoint created no later than the event and listening for its type (or `*`) gets the event
// JSON, signed by the platform at send time with the endpoint's secret.
import { buildEvent } from "./objects";
import type { Call } from "./call";
import { insertObject, liveOfType, newId, str, arr, type ObjectType, type Rec } from "./store";
import { render } from "./view";

export function emit(c: Call, type: string, objectType: ObjectType, o: Rec, previous?: Rec): Rec {
  const id = newId(c.db, "event");
  const endpoints = liveOfType(c.db, "webhook_endpoint").filter((we) => {
    const events = arr(we.enabled_events);
    return we.status === "enabled" && Number(we.created) <= c.now && (events.includes("*") || events.includes(type));
  });
  const event = buildEvent(
    {
      data: previous ? { object: render(c.db, objectType, o), previous_attributes: previous } : { object: render(c.db, objectType, o) },
      pending_webhooks: endpoints.length,
      request: { id: null, idempotency_key: c.idempotencyKey ?? null },
      type,
    },
    { id, created: c.now },
  );
  insertObject(c.db, "event", event);
  if (!endpoints.length) return event;
  const body = JSON.stringify(event, null, 2);
  for (const we of endpoints) c.ctx.webhook({ url: String(we.url), body, secret: str(we.secret) });
  return event;
}

/** The fields of `before` that `after` changed, with their old values (an event's previous_attributes). */
export function changed(before: Rec, after: Rec): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(after)) if (JSON.stringify(before[k]) !== JSON.stringify(v)) out[k] = before[k] ?? null;
  return out;
}
