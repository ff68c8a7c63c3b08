import type { PayCurrency, PayMethod } from "../../integrations/payments/gateway";

/** PayPal charges USD; the Korean payment networks (card, phone, Kakao Pay, virtual account) charge KRW. */
export const currencyOfMethod = (method: PayMethod): PayCurrency => (method === "paypal" ? "USD" : "KRW");

/**
 * The one currency a checkout is shown in, on every step (issue 18, point 7): a purchase request's quoted
 * currency, else the page's (KRW in Korean, USD in English, as every price in the store). A method that charges
 * in the other currency says beside it exactly what it will charge.
 */
export const checkoutCurrency = (quoted: readonly PayCurrency[] | null, locale: "ko" | "en"): PayCurrency =>
  quoted?.[0] ?? (locale === "ko" ? "KRW" : "USD");
