// A subscription's items on their own endpoints (`/v1/subscription_items/:id`): retrieve, and the
// writes Stripe's reference offers beside a subscription update (create, update, delete an item,
// docs.stripe.com/api/subscription_items). Each write is the change a subscription update with
// that one entry in `items` makes, so prorations and events are the same.
import type { Route } from "../../types";
import { load, ok, type Call } from "../call";
import { arg, expand, idParam, metadata, route } from "../declare";
import { fail, noSuch } from "../errors";
import { Params } from "../params";
import { arr, getObject, rec, type Rec } from "../store";
import { changeOneItem, prorationBehavior } from "./billing";

/**
 * The subscription holding item `id`, found with instr: a plain substring test of the stored
 * JSON (a LIKE pattern would read `%` and `_` in the id as wildcards, and SQLite refuses LIKE
 * patterns past 50 bytes), then confirmed on the parsed items.
 */
function holderOf(c: Call, id: string): { sub: Rec; item: Rec } {
  const subId = c.db.one<{ id: string }>(
    "SELECT id FROM st_objects WHERE type = 'subscription' AND instr(data, ?) > 0 LIMIT 1",
    JSON.stringify(id),
  )?.id;
  const sub = subId ? getObject(c.db, "subscription", subId) : undefined;
  const item = arr(rec(sub?.items).data)
    .map(rec)
    .find((it) => it.id === id);
  return sub && item ? { sub, item } : fail(noSuch("subscription_item", id));
}

/** The item as the item endpoints answer it: its price expanded, as on Stripe. */
function itemWire(c: Call, sub: Rec, id: string) {
  const item = arr(rec(sub.items).data)
    .map(rec)
    .find((it) => it.id === id);
  if (!item) return noSuch("subscription_item", id);
  return ok({ ...item, price: getObject(c.db, "price", String(item.price)) ?? item.price });
}

const itemBody = {
  price: arg.text("A recurring price's id"),
  quantity: arg.int("Quantity (not for a metered price)"),
  metadata,
  proration_behavior: prorationBehavior,
  proration_date: arg.int("Unix time the prorations are computed at"),
  payment_behavior: arg.oneOf(
    ["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"],
    "Accepted; the change applies from the next invoice unless prorations are invoiced at once",
  ),
  expand,
};

export const subscriptionItemRoutes: Route[] = [
  route({
    method: "GET",
    pattern: "/v1/subscription_items/:id",
    operation: "subscriptionItems.retrieve",
    summary: "Retrieve a subscription item",
    params: idParam("The item's id, si_…"),
    query: { expand },
    tool: { name: "get_subscription_item", description: "Retrieve a subscription item." },
    handler(c, { params }) {
      const { sub } = holderOf(c, params.id);
      return itemWire(c, sub, params.id);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/subscription_items",
    operation: "subscriptionItems.create",
    summary: "Add an item to a subscription",
    body: { subscription: arg.id("The subscription's id, sub_…"), ...itemBody },
    tool: { name: "create_subscription_item", description: "Add a price to an existing subscription as a new item." },
    handler(c, { body }) {
      const before = load(c, "subscription", body.subscription, "subscription");
      const known = new Set(arr(rec(before.items).data).map((it) => rec(it).id));
      const after = changeOneItem(c, String(before.id), c.p);
      const added = arr(rec(after.items).data)
        .map(rec)
        .find((it) => !known.has(it.id));
      return itemWire(c, after, String(added?.id));
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/subscription_items/:id",
    operation: "subscriptionItems.update",
    summary: "Update a subscription item",
    params: idParam("The item's id, si_…"),
    body: itemBody,
    tool: { name: "update_subscription_item", description: "Change a subscription item's price, quantity or metadata." },
    handler(c, { params }) {
      const { sub } = holderOf(c, params.id);
      const after = changeOneItem(c, String(sub.id), new Params({ ...c.p.raw, id: params.id }));
      return itemWire(c, after, params.id);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/v1/subscription_items/:id",
    operation: "subscriptionItems.del",
    summary: "Delete a subscription item",
    params: idParam("The item's id, si_…"),
    query: {
      proration_behavior: prorationBehavior,
      proration_date: arg.int("Unix time the prorations are computed at"),
      clear_usage: arg.bool("Accepted; metered usage stays on the meter"),
    },
    tool: { name: "delete_subscription_item", description: "Remove an item from its subscription (not its last one)." },
    handler(c, { params }) {
      const { sub } = holderOf(c, params.id);
      changeOneItem(c, String(sub.id), new Params({ id: params.id, deleted: "true" }));
      return ok({ id: params.id, object: "subscription_item", deleted: true });
    },
  }),
];
