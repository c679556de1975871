// The Stripe twin's route table. Search routes come first: `/v1/customers/search` is not the
// customer "search".
import type { Route } from "../types";
import { billingRoutes } from "./routes/billing";
import { catalogRoutes } from "./routes/catalog";
import { customerRoutes } from "./routes/customers";
import { ledgerRoutes } from "./routes/ledger";
import { paymentRoutes } from "./routes/payments";
import { setupIntentRoutes } from "./routes/setup-intents";
import { checkoutRoutes } from "./routes/checkout";

export const stripeRoutes: readonly Route[] = [
  ...ledgerRoutes,
  ...customerRoutes,
  ...paymentRoutes,
  ...setupIntentRoutes,
  ...checkoutRoutes,
  ...catalogRoutes,
  ...billingRoutes,
];
