"""stripe-python (Debian's python3-stripe) against the Stripe twin.

Run by test/clients/python-clients.test.ts with POME_ORIGIN and POME_STRIPE_KEY set. This client is
older than the Node one the twin is built against: it pins its own API version and encodes lists with
indexes (`expand[0]=`), both of which Stripe accepts.
"""

import os
import sys

import stripe

stripe.api_key = os.environ["POME_STRIPE_KEY"]
stripe.api_base = os.environ["POME_ORIGIN"]
stripe.max_network_retries = 0


def step(name, value):
    print(f"ok {name}: {value}")


customer = stripe.Customer.create(email="py@example.com", name="Py Client", metadata={"source": "python"})
assert customer.email == "py@example.com" and customer.metadata["source"] == "python"
step("customer", customer.id)

fetched = stripe.Customer.retrieve(customer.id)
assert fetched.id == customer.id
updated = stripe.Customer.modify(customer.id, description="updated from python")
assert updated.description == "updated from python"
step("customer updated", updated.description)

for i in range(3):
    stripe.Customer.create(email=f"page{i}@example.com")
seen = [c.id for c in stripe.Customer.list(limit=2).auto_paging_iter()]
assert customer.id in seen and len(seen) == len(set(seen)) and len(seen) >= 4
step("auto-paging", len(seen))

product = stripe.Product.create(name="Python plan")
price = stripe.Price.create(product=product.id, unit_amount=1500, currency="usd", recurring={"interval": "month"})
step("price", price.id)

intent = stripe.PaymentIntent.create(
    amount=2000, currency="usd", customer=customer.id, payment_method="pm_card_visa",
    payment_method_types=["card"], confirm=True, expand=["latest_charge"],
)
assert intent.status == "succeeded", intent.status
assert intent.latest_charge.amount == 2000
step("payment intent", intent.id)

refund = stripe.Refund.create(payment_intent=intent.id, amount=500)
assert refund.status == "succeeded" and refund.amount == 500
step("refund", refund.id)

stripe.PaymentMethod.attach("pm_card_visa", customer=customer.id)
stripe.Customer.modify(customer.id, invoice_settings={"default_payment_method": stripe.PaymentMethod.list(customer=customer.id, type="card").data[0].id})
subscription = stripe.Subscription.create(customer=customer.id, items=[{"price": price.id}])
assert subscription.status == "active", subscription.status
step("subscription", subscription.id)

key = "py-smoke-idempotent"
first = stripe.Customer.create(email="same@example.com", idempotency_key=key)
second = stripe.Customer.create(email="same@example.com", idempotency_key=key)
assert first.id == second.id
step("idempotency", first.id)

try:
    stripe.Customer.retrieve("cus_does_not_exist")
    raise AssertionError("a missing customer must raise")
except stripe.error.InvalidRequestError as error:
    assert error.http_status == 404 and error.code == "resource_missing", (error.http_status, error.code)
    step("missing customer", error.code)

try:
    stripe.PaymentIntent.create(amount=-1, currency="usd")
    raise AssertionError("a negative amount must raise")
except stripe.error.InvalidRequestError as error:
    assert error.param == "amount", error.param
    step("invalid amount", error.param)

try:
    stripe.PaymentIntent.create(amount=1000, currency="usd", payment_method="pm_card_chargeDeclined",
                                payment_method_types=["card"], confirm=True)
    raise AssertionError("a declined card must raise")
except stripe.error.CardError as error:
    assert error.code == "card_declined", error.code
    step("declined card", error.code)

# Round 3: Checkout, saving a card, invoicing and the upcoming invoice, as this older client calls them.
one_off = stripe.Price.create(product=product.id, unit_amount=1200, currency="usd")
session = stripe.checkout.Session.create(
    mode="payment", line_items=[{"price": one_off.id, "quantity": 2}],
    success_url="https://shop.example/done?session={CHECKOUT_SESSION_ID}", customer=customer.id,
)
assert session.status == "open" and session.amount_total == 2400, (session.status, session.amount_total)
assert stripe.checkout.Session.retrieve(session.id).id == session.id
session_lines = stripe.checkout.Session.list_line_items(session.id)
assert [(line.price.id, line.quantity, line.amount_total) for line in session_lines.data] == [(one_off.id, 2, 2400)]
step("checkout session", session.id)

setup = stripe.SetupIntent.create(customer=customer.id, payment_method_types=["card"], usage="off_session")
assert setup.status == "requires_payment_method", setup.status
setup = stripe.SetupIntent.confirm(setup.id, payment_method="pm_card_visa")
assert setup.status == "succeeded", setup.status
assert stripe.PaymentMethod.retrieve(setup.payment_method).customer == customer.id
step("setup intent", setup.id)

item = stripe.InvoiceItem.create(customer=customer.id, amount=700, currency="usd", description="setup fee")
assert item.amount == 700 and item.invoice is None, (item.amount, item.invoice)
step("invoice item", item.id)

# GET /v1/invoices/upcoming: the subscription's next period, with the pending item.
upcoming = stripe.Invoice.upcoming(customer=customer.id)
assert "id" not in upcoming, upcoming.get("id")
assert upcoming.total == 1500 + 700, upcoming.total
assert sorted(line.amount for line in upcoming.lines.data) == [700, 1500]
upcoming_lines = stripe.Invoice.upcoming_lines(customer=customer.id, limit=1)
assert len(upcoming_lines.data) == 1 and upcoming_lines.has_more
step("upcoming invoice", upcoming.total)

print(f"stripe-python smoke passed (stripe {stripe.version.VERSION})")
sys.exit(0)
