// Stripe's own parameter rules that are not about one resource: currency codes, email addresses
// and metadata's limits, each refused with the message Stripe writes.
import { fail, invalidRequest } from "./errors";

/**
 * The presentment currencies Stripe lists at https://docs.stripe.com/currencies (a US account),
 * in the order Stripe's `Invalid currency` message names them.
 */
export const SUPPORTED_CURRENCIES: readonly string[] = (
  "usd aed afn all amd ang aoa ars aud awg azn bam bbd bdt bgn bif bmd bnd bob brl bsd bwp byn bzd cad cdf chf clp cny cop " +
  "crc cve czk djf dkk dop dzd egp etb eur fjd fkp gbp gel gip gmd gnf gtq gyd hkd hnl htg huf idr ils inr isk jmd jpy kes " +
  "kgs khr kmf krw kyd kzt lak lbp lkr lrd lsl mad mdl mga mkd mmk mnt mop mur mvr mwk mxn myr mzn nad ngn nio nok npr nzd " +
  "pab pen pgk php pkr pln pyg qar ron rsd rub rwf sar sbd scr sek sgd shp sle sos srd std szl thb tjs top try ttd twd tzs " +
  "uah ugx uyu uzs vnd vuv wst xaf xcd xof xpf yer zar zmw"
).split(" ");
const SUPPORTED = new Set(SUPPORTED_CURRENCIES);

/**
 * A currency code as Stripe stores it (lower case). An unknown one is refused as Stripe refuses
 * it (seen in lukec/stripe-perl#156: "Invalid currency: zzz. Stripe currently supports these
 * currencies: usd, aed, … On parameter: currency").
 */
export function currencyCode(value: string, param: string): string {
  const code = value.toLowerCase();
  if (SUPPORTED.has(code)) return code;
  return fail(
    invalidRequest(`Invalid currency: ${code}. Stripe currently supports these currencies: ${SUPPORTED_CURRENCIES.join(", ")}`, {
      param,
    }),
  );
}

/**
 * An email address of a valid shape (Stripe validates them on customers since 2018-07-27:
 * docs.stripe.com/changelog/2018-07-27/stripe-validates-email-addresses-customers). Stripe refuses
 * `test@test`, `otameshi@com`, a leading space and a full-width `＠` with
 * "Invalid email address: <value>" (code `email_invalid`, e.g. fjordllc/bootcamp#4134).
 */
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;

export const isEmail = (v: string) => v.length <= 512 && EMAIL.test(v) && !v.includes("..") && !v.startsWith(".");

export function checkEmail(value: string, param: string): void {
  if (!isEmail(value)) fail(invalidRequest(`Invalid email address: ${value}`, { code: "email_invalid", param }));
}

export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;

/**
 * Metadata's limits (docs.stripe.com/metadata: 50 keys, keys up to 40 characters without square
 * brackets, values up to 500), with Stripe's messages: "Metadata can have up to 50 keys, but
 * you've set 51." (FlowFuse/flowfuse#1948), "Invalid key: … must be a string under 40
 * characters" and "Invalid val: … must be a string under 500 characters" (stripe/stripe-php#246).
 */
export function checkMetadata(metadata: Record<string, string>, param: string): void {
  const keys = Object.keys(metadata);
  for (const key of keys) {
    if (key.length > METADATA_KEY_MAX || /[[\]]/.test(key))
      fail(invalidRequest(`Invalid key: ${key} must be a string under ${METADATA_KEY_MAX} characters`, { param }));
    const value = metadata[key] ?? "";
    if (value.length > METADATA_VALUE_MAX)
      fail(invalidRequest(`Invalid val: ${value} must be a string under ${METADATA_VALUE_MAX} characters`, { param }));
  }
  if (keys.length > METADATA_MAX_KEYS)
    fail(
      invalidRequest(
        `Metadata can have up to ${METADATA_MAX_KEYS} keys, but you've set ${keys.length}. Email us at support+metadata@stripe.com for more information.`,
        { param },
      ),
    );
}
