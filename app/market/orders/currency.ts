import type { PayCurrency, PayMethod } from "../../integrations/payments/gateway";

/** PayPal charges USD; the Korean payment networks (card, phone, Kakao Pay, virtual account) charge KRW. */
export const currencyOfMethod = (method: PayMethod): PayCurrency => (method === "paypal" ? "USD" : "KRW");
