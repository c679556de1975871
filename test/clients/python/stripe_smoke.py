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

print(f"stripe-python smoke passed (stripe {stripe.version.VERSION})")
sys.exit(0)
