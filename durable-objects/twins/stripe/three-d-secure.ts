// The next action Stripe answers when a test card asks for 3D Secure: the same shape for a
// payment intent and a setup intent, naming the intent in the hosted page's URL.
export function threeDSecureAction(object: "payment_intent" | "setup_intent", id: string) {
  return {
    type: "use_stripe_sdk",
    use_stripe_sdk: {
      type: "three_d_secure_redirect",
      stripe_js: `https://hooks.stripe.com/3d_secure_2/hosted?${object}=${id}`,
      // The intent's id without its prefix (pi_, seti_).
      source: `src_${id.slice(id.indexOf("_") + 1)}`,
    },
  };
}
