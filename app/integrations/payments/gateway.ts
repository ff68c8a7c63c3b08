/**
 * One interface for every payment gateway (docs/architecture.md, "Payments"). The store's domain core
 * (app/market/orders) talks only to this; each gateway adapter speaks its provider's documented HTTP contract:
 *   - sandbox  (sandbox.server.ts): the offline default, a local hosted payment page in test mode that calls the
 *     store back with signed webhooks (Standard Webhooks, the same scheme as PortOne V2);
 *   - portone  (portone.server.ts): PortOne V2 REST API for card, mobile phone, Kakao Pay and virtual account;
 *   - paypal   (paypal.server.ts): PayPal Orders v2 / Payments v2 / Webhooks v1.
 * Amounts are integer minor units of the order's currency (KRW: won; USD: cents).
 */
import type { Locale } from "../../i18n/config";

export const PAY_METHODS = ["card", "phone", "kakaopay", "vbank", "paypal"] as const;
export type PayMethod = (typeof PAY_METHODS)[number];
export type GatewayName = "sandbox" | "portone" | "paypal";
export type PayCurrency = "KRW" | "USD";

/** What the store asks a gateway to collect. */
export interface PaymentRequest {
  /** The store's own unique payment id (the order number): PortOne's paymentId, PayPal's invoice/custom id. */
  paymentId: string;
  orderName: string;
  /** Total to charge, VAT included, in minor units. Computed by the server, never taken from the browser. */
  amount: number;
  /** VAT part of `amount` (PortOne `vatAmount`; PayPal breakdown `tax_total`). */
  vat: number;
  currency: PayCurrency;
  method: PayMethod;
  buyer: { email: string; name?: string };
  locale: Locale;
  /** Absolute URL the payer's browser returns to when the gateway is done (approved, failed or issued). */
  returnUrl: string;
  /** Absolute URL the payer's browser returns to when they abandon the payment. */
  cancelUrl: string;
  /** Absolute URL of the store's webhook endpoint for this gateway. */
  webhookUrl: string;
  /** Virtual account only: the deposit deadline (ISO 8601). */
  vbankDueAt?: string;
}

/** How the payer's browser continues after the store placed the order. */
export type Checkout =
  | { kind: "redirect"; gatewayPaymentId: string; url: string }
  /** PortOne: the store's page runs the browser SDK's `requestPayment` with these parameters. */
  | { kind: "browser-sdk"; gatewayPaymentId: string; sdk: Record<string, unknown> };

export type GatewayStatus = "ready" | "pending" | "vbank_issued" | "paid" | "failed" | "partial_cancelled" | "cancelled";

/** A payment as the gateway reports it: the only truth the store acts on. */
export interface GatewayPayment {
  gatewayPaymentId: string;
  /** The store's payment id the payment was created with, when the gateway echoes it. */
  paymentId?: string;
  status: GatewayStatus;
  currency: string;
  amount: { total: number; paid: number; cancelled: number };
  method?: PayMethod;
  paidAt?: string;
  vbank?: { bank: string; accountNumber: string; holder?: string; dueAt?: string };
  /** Why a payment is pending (PayPal eCheck: "ECHECK"). */
  pendingReason?: string;
  failure?: { reason: string; code?: string };
}

export interface RefundAccount {
  bank: string;
  number: string;
  holderName: string;
  holderPhoneNumber?: string;
}

export interface CancelRequest {
  reason: string;
  /** Omit for a full cancel; set for a partial one (minor units). */
  amount?: number;
  /** Optimistic check: the cancellable balance the store expects the gateway to hold. */
  currentCancellableAmount?: number;
  /** Virtual-account refunds go to this account. */
  refundAccount?: RefundAccount;
  /** Idempotency key for the cancel call (PayPal-Request-Id). */
  requestId?: string;
}

export interface Cancellation {
  cancellationId: string;
  status: "succeeded" | "requested" | "failed";
  amount: number;
}

/** A verified webhook: which payment changed. The store re-reads the payment with `getPayment`. */
export interface GatewayWebhook {
  /** Unique per event, stable across retries (Standard Webhooks `webhook-id`, PayPal event id). */
  eventId: string;
  type: string;
  gatewayPaymentId: string | null;
}

/** Errors a gateway answers, mapped to what the store can act on. */
export class GatewayError extends Error {
  constructor(
    /** Provider's error code or type, e.g. PAYMENT_NOT_FOUND, CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT, PENDING_CAPTURE. */
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "GatewayError";
  }
}

/** The webhook could not be verified: bad, stale or missing signature. Answer 400, do nothing. */
export class WebhookVerificationFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationFailed";
  }
}

/*
 * The gateways are built once by the server (server.ts) while the routes and the domain core run from the Remix
 * build: the error classes may exist twice, so `instanceof` across that line is unreliable. Test by name.
 */
export const isGatewayError = (error: unknown): error is GatewayError =>
  error instanceof Error && error.name === "GatewayError" && typeof (error as GatewayError).code === "string";
export const isWebhookVerificationFailed = (error: unknown): error is WebhookVerificationFailed =>
  error instanceof Error && error.name === "WebhookVerificationFailed";

export interface PaymentGateway {
  readonly name: GatewayName;
  /** Test mode is shown to the payer (the sandbox always; PortOne TEST channels; PayPal sandbox host). */
  readonly testMode: boolean;
  readonly methods: readonly PayMethod[];
  /** Registers the payment with the gateway and says where the payer goes next. */
  begin(request: PaymentRequest): Promise<Checkout>;
  /**
   * The payer came back to `returnUrl` with the gateway's query parameters: finish what the gateway needs the
   * merchant to finish (PayPal: capture the approved order; idempotent) and answer the payment as it now is.
   */
  confirm(gatewayPaymentId: string, returnParams: URLSearchParams): Promise<GatewayPayment>;
  /** The payment as the gateway holds it, or null when it does not know it. */
  getPayment(gatewayPaymentId: string): Promise<GatewayPayment | null>;
  cancel(gatewayPaymentId: string, request: CancelRequest): Promise<Cancellation>;
  /** Closes an unpaid virtual account (deadline passed). Gateways without virtual accounts throw GatewayError. */
  closeVirtualAccount(gatewayPaymentId: string): Promise<void>;
  /** Verifies a webhook delivery on its raw body; throws WebhookVerificationFailed. */
  verifyWebhook(rawBody: string, headers: Headers): Promise<GatewayWebhook>;
}
