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
import { invoicingRoutes } from "./routes/invoicing";
import { creditNoteRoutes } from "./routes/credit-notes";
import { customerBalanceRoutes } from "./routes/customer-balance";
import { taxRoutes } from "./routes/tax";
import { scheduleRoutes } from "./routes/schedules";
import { connectRoutes } from "./routes/connect";
import { externalAccountRoutes } from "./routes/external-accounts";
import { payoutRoutes } from "./routes/payouts";
import { portalRoutes } from "./routes/portal";
import { meterRoutes } from "./routes/meters";
import { subscriptionItemRoutes } from "./routes/subscription-items";

export const stripeRoutes: readonly Route[] = [
  ...ledgerRoutes,
  ...customerRoutes,
  ...paymentRoutes,
  ...setupIntentRoutes,
  ...checkoutRoutes,
  ...catalogRoutes,
  ...invoicingRoutes,
  ...creditNoteRoutes,
  ...customerBalanceRoutes,
  ...taxRoutes,
  ...scheduleRoutes,
  ...billingRoutes,
  ...subscriptionItemRoutes,
  ...connectRoutes,
  ...externalAccountRoutes,
  ...payoutRoutes,
  ...portalRoutes,
  ...meterRoutes,
];
