/**
 * PayPal gateway: Orders v2 (create, read, capture), Payments v2 (refund a capture, read a capture) and Webhooks v1
 * (verify-webhook-signature), called with fetch against the documented REST contract
 * (docs: /work/shared/reference/services.md §3; https://developer.paypal.com/api/rest/).
 *
 * Flow: `begin` creates a CAPTURE order with an experience context and sends the payer to the `payer-action` link;
 * PayPal brings them back to `returnUrl?token=<order id>&PayerID=…`, where `confirm` captures the order (idempotent via
 * `PayPal-Request-Id: <order id>-capture`). An eCheck capture stays PENDING (status_details.reason ECHECK) until PayPal
 * clears it and sends PAYMENT.CAPTURE.COMPLETED (or DENIED); the store then re-reads the order with `getPayment`.
 * Amounts cross this boundary as integer minor units; PayPal speaks decimal strings ("12.34").
 */
import {
  type Cancellation,
  type CancelRequest,
  type Checkout,
  GatewayError,
  type GatewayPayment,
  type GatewayStatus,
  type GatewayWebhook,
  type PaymentGateway,
  type PaymentRequest,
  WebhookVerificationFailed,
} from "./gateway";

export interface PayPalGatewayOptions {
  clientId: string;
  clientSecret: string;
  /** The id PayPal gave the store's webhook subscription (part of what PayPal signs). */
  webhookId: string;
  /** Defaults to the sandbox host in test mode, the live host otherwise. */
  baseUrl?: string;
  testMode: boolean;
  /** Shown on PayPal's pages (experience_context.brand_name, at most 127 characters). */
  brandName?: string;
  fetchImpl?: typeof fetch;
  /** Per HTTP call; default 15 s. */
  timeoutMs?: number;
  /** Clock for the token cache (ms since the epoch). */
  now?: () => number;
}

export const PAYPAL_SANDBOX_URL = "https://api-m.sandbox.paypal.com";
export const PAYPAL_LIVE_URL = "https://api-m.paypal.com";

/** PayPal's supported currency codes (services.md §3.6); KRW is not one of them. */
const PAYPAL_CURRENCIES = new Set([
  "AUD",
  "BRL",
  "CAD",
  "CNY",
  "CZK",
  "DKK",
  "EUR",
  "HKD",
  "HUF",
  "ILS",
  "INR",
  "JPY",
  "MYR",
  "MXN",
  "NOK",
  "NZD",
  "PHP",
  "PLN",
  "GBP",
  "SGD",
  "SEK",
  "CHF",
  "TWD",
  "THB",
  "USD",
]);
/** Currencies PayPal takes without decimals. */
const ZERO_DECIMAL_CURRENCIES = new Set(["HUF", "JPY", "TWD"]);

/** Capture 422 issues that end the attempt: the payment failed, the payer may start again. */
const CAPTURE_FAILED_ISSUES = new Set(["INSTRUMENT_DECLINED", "TRANSACTION_REFUSED", "MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED"]);
/** Capture 422 issues after which the order is re-read as it is (not approved yet, or captured elsewhere). */
const CAPTURE_REREAD_ISSUES = new Set(["ORDER_ALREADY_CAPTURED", "ORDER_NOT_APPROVED", "PAYER_ACTION_REQUIRED"]);

const WEBHOOK_HEADERS = {
  auth_algo: "paypal-auth-algo",
  cert_url: "paypal-cert-url",
  transmission_id: "paypal-transmission-id",
  transmission_sig: "paypal-transmission-sig",
  transmission_time: "paypal-transmission-time",
} as const;

/**
 * What a PayPal delivery's headers must look like before PayPal is asked to verify it (services.md §3.5): cheap
 * checks, so a forged delivery costs no call. The certificate is PayPal's own (an https address on its API host for
 * the mode, under /v1/notifications/certs/); the transmission is recent (PayPal sends each retry as a new
 * transmission with its own time); the algorithm is the one PayPal uses; the id and signature have their forms.
 */
export const PAYPAL_CERT_HOSTS = {
  live: ["api.paypal.com", "api-m.paypal.com"],
  sandbox: ["api.sandbox.paypal.com", "api-m.sandbox.paypal.com"],
} as const;
/** How far a transmission's time may be from the store's clock, either way. */
export const PAYPAL_WEBHOOK_WINDOW_MS = 15 * 60_000;
/** A webhook body larger than this is not one of PayPal's events. */
export const PAYPAL_WEBHOOK_MAX_BYTES = 256 * 1024;

export function paypalDeliveryProblem(
  fields: Record<keyof typeof WEBHOOK_HEADERS, string>,
  rawBody: string,
  mode: { testMode: boolean; now: number },
): string | null {
  if (Buffer.byteLength(rawBody) > PAYPAL_WEBHOOK_MAX_BYTES) return "the body is too large";
  if (fields.auth_algo !== "SHA256withRSA") return "PAYPAL-AUTH-ALGO is not SHA256withRSA";
  if (!/^[A-Za-z0-9-]{1,64}$/.test(fields.transmission_id)) return "PAYPAL-TRANSMISSION-ID is not an id";
  if (fields.transmission_sig.length > 2048 || !/^[A-Za-z0-9+/]+={0,2}$/.test(fields.transmission_sig))
    return "PAYPAL-TRANSMISSION-SIG is not a base64 signature";
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(fields.transmission_time)
    ? Date.parse(fields.transmission_time)
    : Number.NaN;
  if (Number.isNaN(time)) return "PAYPAL-TRANSMISSION-TIME is not a time";
  if (Math.abs(mode.now - time) > PAYPAL_WEBHOOK_WINDOW_MS) return "PAYPAL-TRANSMISSION-TIME is outside the accepted window";
  const cert = fields.cert_url.length <= 1024 ? URL.parse(fields.cert_url) : null;
  const hosts: readonly string[] = mode.testMode ? PAYPAL_CERT_HOSTS.sandbox : PAYPAL_CERT_HOSTS.live;
  if (
    cert?.protocol !== "https:" ||
    cert.username ||
    cert.password ||
    cert.port ||
    !hosts.includes(cert.hostname) ||
    !cert.pathname.startsWith("/v1/notifications/certs/")
  )
    return "PAYPAL-CERT-URL is not a PayPal certificate address";
  return null;
}

/** A PayPal error answer: `code` is details[0].issue, else the error name; `description` is PayPal's own text. */
export class PayPalApiError extends GatewayError {
  constructor(
    code: string,
    message: string,
    status: number,
    readonly description: string,
  ) {
    super(code, message, status);
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// PayPal's JSON, as far as the adapter reads it

export interface PayPalMoney {
  currency_code: string;
  value: string;
}
interface PayPalLink {
  href: string;
  rel: string;
  method?: string;
}
interface PayPalCapture {
  id: string;
  status: string;
  status_details?: { reason?: string };
  amount?: PayPalMoney;
  invoice_id?: string;
  custom_id?: string;
  create_time?: string;
  update_time?: string;
  supplementary_data?: { related_ids?: { order_id?: string } };
  links?: PayPalLink[];
}
interface PayPalRefund {
  id: string;
  status: string;
  status_details?: { reason?: string };
  amount?: PayPalMoney;
  links?: PayPalLink[];
}
interface PayPalPurchaseUnit {
  reference_id?: string;
  invoice_id?: string;
  custom_id?: string;
  amount?: PayPalMoney;
  payments?: { captures?: PayPalCapture[]; refunds?: PayPalRefund[] };
}
interface PayPalOrder {
  id: string;
  status: string;
  purchase_units?: PayPalPurchaseUnit[];
  links?: PayPalLink[];
}
interface PayPalErrorBody {
  name?: string;
  message?: string;
  debug_id?: string;
  details?: { issue?: string; description?: string; field?: string }[];
  /** OAuth errors use the RFC 6749 shape. */
  error?: string;
  error_description?: string;
}
interface PayPalWebhookEvent {
  id?: unknown;
  event_type?: unknown;
  resource_type?: unknown;
  resource?: {
    id?: unknown;
    order_id?: unknown;
    supplementary_data?: { related_ids?: { order_id?: unknown } };
    links?: unknown;
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Money

const decimalsOf = (currency: string): number => (ZERO_DECIMAL_CURRENCIES.has(currency.toUpperCase()) ? 0 : 2);

/** Integer minor units → PayPal's decimal string: 1234 USD → "12.34". */
export function toPayPalValue(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor) || minor < 0)
    throw new GatewayError("INVALID_AMOUNT", `Amount must be a non-negative integer of minor units`);
  const digits = decimalsOf(currency);
  if (digits === 0) return String(minor);
  const s = String(minor).padStart(digits + 1, "0");
  return `${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

/** PayPal's decimal string → integer minor units: "12.34" USD → 1234 (exact, no floating point). */
export function fromPayPalValue(value: string, currency: string): number {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) throw new GatewayError("INVALID_RESPONSE", `PayPal answered an amount that is not a decimal: ${JSON.stringify(value)}`);
  const digits = decimalsOf(currency);
  const fraction = match[2] ?? "";
  if (/[1-9]/.test(fraction.slice(digits))) {
    throw new GatewayError("INVALID_RESPONSE", `PayPal answered more decimals than ${currency} has: ${value}`);
  }
  return Number(match[1]) * 10 ** digits + Number(fraction.slice(0, digits).padEnd(digits, "0") || "0");
}

const moneyToMinor = (money: PayPalMoney | undefined): number => (money ? fromPayPalValue(money.value, money.currency_code) : 0);

// ---------------------------------------------------------------------------------------------------------------------
// Mapping an order to the store's view

function captureStatus(capture: PayPalCapture | undefined): GatewayStatus {
  switch (capture?.status) {
    case "COMPLETED":
      return "paid";
    case "PARTIALLY_REFUNDED":
      return "partial_cancelled";
    case "REFUNDED":
      return "cancelled";
    case "DECLINED":
    case "FAILED":
      return "failed";
    default:
      // PENDING, an unknown status, or a COMPLETED order without a capture: do not fulfil yet.
      return "pending";
  }
}

function orderStatus(order: PayPalOrder, capture: PayPalCapture | undefined): GatewayStatus {
  switch (order.status) {
    case "COMPLETED":
      return captureStatus(capture);
    case "VOIDED":
      return "failed";
    default:
      // CREATED, SAVED, APPROVED, PAYER_ACTION_REQUIRED: not paid, the payer may still approve or be captured.
      return "ready";
  }
}

/** Maps an order (GET or capture answer with `Prefer: return=representation`) to a GatewayPayment. */
export function mapPayPalOrder(order: PayPalOrder): GatewayPayment {
  const unit = order.purchase_units?.[0];
  const capture = unit?.payments?.captures?.[0];
  const currency = unit?.amount?.currency_code ?? capture?.amount?.currency_code ?? "";
  const status = orderStatus(order, capture);
  const captured = capture && ["COMPLETED", "PARTIALLY_REFUNDED", "REFUNDED"].includes(capture.status) ? moneyToMinor(capture.amount) : 0;
  let cancelled = (unit?.payments?.refunds ?? [])
    .filter((r) => r.status !== "FAILED" && r.status !== "CANCELLED")
    .reduce((sum, r) => sum + moneyToMinor(r.amount), 0);
  if (status === "cancelled" && cancelled === 0) cancelled = captured;
  const payment: GatewayPayment = {
    gatewayPaymentId: order.id,
    status,
    currency,
    amount: { total: unit?.amount ? moneyToMinor(unit.amount) : moneyToMinor(capture?.amount), paid: captured, cancelled },
    method: "paypal",
  };
  const paymentId = unit?.invoice_id ?? unit?.custom_id ?? capture?.invoice_id ?? capture?.custom_id;
  if (paymentId) payment.paymentId = paymentId;
  if (captured > 0 && capture?.create_time) payment.paidAt = capture.create_time;
  if (status === "pending" && capture?.status_details?.reason) payment.pendingReason = capture.status_details.reason;
  if (status === "failed") {
    payment.failure =
      order.status === "VOIDED"
        ? { reason: "The order was voided", code: "VOIDED" }
        : { reason: capture?.status_details?.reason ?? `Capture ${capture?.status ?? "failed"}`, code: capture?.status };
  }
  return payment;
}

const refundStatus = (status: string): Cancellation["status"] =>
  status === "COMPLETED" ? "succeeded" : status === "FAILED" || status === "CANCELLED" ? "failed" : "requested";

// ---------------------------------------------------------------------------------------------------------------------
// The gateway

interface CallOptions {
  body?: string;
  requestId?: string;
  /** Ask for the full resource instead of `id`, `status` and `links`. */
  representation?: boolean;
}

export function createPayPalGateway(options: PayPalGatewayOptions): PaymentGateway {
  const baseUrl = (options.baseUrl ?? (options.testMode ? PAYPAL_SANDBOX_URL : PAYPAL_LIVE_URL)).replace(/\/+$/, "");
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64");

  let token: { value: string; renewAt: number } | null = null;
  let pendingToken: Promise<string> | null = null;

  /** fetch with a timeout; network failures and timeouts become GatewayError("NETWORK") without request details. */
  async function send(method: string, path: string, init: { headers: Record<string, string>; body?: string }) {
    const doFetch = options.fetchImpl ?? globalThis.fetch;
    try {
      return await doFetch(`${baseUrl}${path}`, { method, headers: init.headers, body: init.body, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new GatewayError(
        "NETWORK",
        `PayPal did not answer ${method} ${path.split("?")[0]} (${timedOut ? "timeout" : "network error"})`,
      );
    }
  }

  async function readJson<T>(res: Response): Promise<T | undefined> {
    const text = await res.text().catch(() => "");
    if (!text) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  }

  function errorFrom(method: string, path: string, status: number, body: PayPalErrorBody | undefined): PayPalApiError {
    const detail = body?.details?.find((d) => d.issue);
    const code = detail?.issue ?? body?.name ?? (body?.error ? body.error.toUpperCase() : `HTTP_${status}`);
    const description = detail?.description ?? body?.message ?? body?.error_description ?? "";
    const debug = body?.debug_id ? ` [debug_id ${body.debug_id}]` : "";
    const message = `PayPal ${method} ${path} answered ${status} ${code}${description ? `: ${description}` : ""}${debug}`;
    return new PayPalApiError(code, message, status, description);
  }

  async function fetchToken(): Promise<string> {
    const issuedAt = now();
    const path = "/v1/oauth2/token";
    const res = await send("POST", path, {
      headers: {
        authorization: `Basic ${basic}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({ grant_type: "client_credentials" }).toString(),
    });
    const body = await readJson<PayPalErrorBody & { access_token?: string; token_type?: string; expires_in?: number }>(res);
    if (!res.ok) throw errorFrom("POST", path, res.status, body);
    if (!body?.access_token || typeof body.expires_in !== "number") {
      throw new GatewayError("INVALID_RESPONSE", "PayPal answered the token request without an access token");
    }
    const lifetime = body.expires_in * 1000;
    // Renew shortly before PayPal's expiry: a minute early, or halfway for very short lifetimes.
    token = { value: body.access_token, renewAt: issuedAt + lifetime - Math.min(60_000, lifetime / 2) };
    return body.access_token;
  }

  async function accessToken(): Promise<string> {
    if (token && now() < token.renewAt) return token.value;
    if (!pendingToken) {
      pendingToken = fetchToken().finally(() => {
        pendingToken = null;
      });
    }
    return pendingToken;
  }

  /** One authenticated API call: fresh token once on 401; non-2xx answers become GatewayError. */
  async function call<T>(method: "GET" | "POST", path: string, opts: CallOptions = {}): Promise<{ status: number; body: T }> {
    for (let attempt = 0; ; attempt++) {
      const bearer = await accessToken();
      const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, accept: "application/json" };
      if (opts.body !== undefined) headers["content-type"] = "application/json";
      if (opts.requestId) headers["paypal-request-id"] = opts.requestId;
      if (opts.representation) headers.prefer = "return=representation";
      const res = await send(method, path, { headers, body: opts.body });
      if (res.status === 401 && attempt === 0) {
        await res.arrayBuffer().catch(() => undefined);
        if (token?.value === bearer) token = null;
        continue;
      }
      const body = await readJson<T & PayPalErrorBody>(res);
      if (!res.ok) throw errorFrom(method, path, res.status, body);
      if (body === undefined)
        throw new GatewayError("INVALID_RESPONSE", `PayPal answered ${method} ${path} without a JSON body`, res.status);
      return { status: res.status, body };
    }
  }

  const orderPath = (orderId: string) => `/v2/checkout/orders/${encodeURIComponent(orderId)}`;

  async function readOrder(orderId: string): Promise<PayPalOrder | null> {
    try {
      return (await call<PayPalOrder>("GET", orderPath(orderId))).body;
    } catch (error) {
      if (
        error instanceof GatewayError &&
        (error.status === 404 || error.code === "INVALID_RESOURCE_ID" || error.code === "RESOURCE_NOT_FOUND")
      ) {
        return null;
      }
      throw error;
    }
  }

  /** For refund events, whose resource names the capture (`up` link) but not the order. */
  async function orderIdOfCapture(captureId: string): Promise<string | null> {
    try {
      const capture = (await call<PayPalCapture>("GET", `/v2/payments/captures/${encodeURIComponent(captureId)}`)).body;
      return capture.supplementary_data?.related_ids?.order_id ?? null;
    } catch (error) {
      if (error instanceof GatewayError && error.status === 404) return null;
      throw error;
    }
  }

  return {
    name: "paypal",
    testMode: options.testMode,
    methods: ["paypal"],

    async begin(request: PaymentRequest): Promise<Checkout> {
      if (request.method !== "paypal") {
        throw new GatewayError("METHOD_NOT_AVAILABLE", `PayPal does not take the payment method ${request.method}`);
      }
      if (!PAYPAL_CURRENCIES.has(request.currency)) {
        throw new GatewayError("CURRENCY_NOT_SUPPORTED", `PayPal does not take ${request.currency}`);
      }
      if (
        !Number.isSafeInteger(request.amount) ||
        request.amount <= 0 ||
        !Number.isSafeInteger(request.vat) ||
        request.vat < 0 ||
        request.vat > request.amount
      ) {
        throw new GatewayError("INVALID_AMOUNT", "The amount must be a positive integer of minor units and the VAT part of it");
      }
      const currency = request.currency;
      const experience: Record<string, string> = {
        return_url: request.returnUrl,
        cancel_url: request.cancelUrl,
        user_action: "PAY_NOW",
        locale: request.locale === "ko" ? "ko-KR" : "en-US",
        shipping_preference: "NO_SHIPPING",
      };
      if (options.brandName) experience.brand_name = options.brandName.slice(0, 127);
      const body = {
        intent: "CAPTURE",
        purchase_units: [
          {
            reference_id: request.paymentId,
            invoice_id: request.paymentId,
            custom_id: request.paymentId,
            description: request.orderName.slice(0, 127),
            amount: {
              currency_code: currency,
              value: toPayPalValue(request.amount, currency),
              breakdown: {
                item_total: { currency_code: currency, value: toPayPalValue(request.amount - request.vat, currency) },
                tax_total: { currency_code: currency, value: toPayPalValue(request.vat, currency) },
              },
            },
          },
        ],
        payment_source: { paypal: { experience_context: experience } },
      };
      const { body: order } = await call<PayPalOrder>("POST", "/v2/checkout/orders", {
        body: JSON.stringify(body),
        requestId: `${request.paymentId}-create`,
        representation: true,
      });
      const link = order.links?.find((l) => l.rel === "payer-action") ?? order.links?.find((l) => l.rel === "approve");
      if (!order.id || !link) {
        throw new GatewayError("INVALID_RESPONSE", `PayPal created order ${order.id ?? "?"} (${order.status}) without a payer-action link`);
      }
      return { kind: "redirect", gatewayPaymentId: order.id, url: link.href };
    },

    async confirm(orderId: string, _returnParams: URLSearchParams): Promise<GatewayPayment> {
      // The return parameters (`token` = order id, `PayerID`) only say the payer came back; the capture answer is the truth.
      try {
        const { body } = await call<PayPalOrder>("POST", `${orderPath(orderId)}/capture`, {
          body: "{}",
          requestId: `${orderId}-capture`,
          representation: true,
        });
        return mapPayPalOrder(body);
      } catch (error) {
        if (!(error instanceof GatewayError) || error.status !== 422) throw error;
        if (!CAPTURE_REREAD_ISSUES.has(error.code) && !CAPTURE_FAILED_ISSUES.has(error.code)) throw error;
        const order = await readOrder(orderId);
        if (!order) throw error;
        const payment = mapPayPalOrder(order);
        if (CAPTURE_FAILED_ISSUES.has(error.code) && payment.status === "ready") {
          const reason = error instanceof PayPalApiError && error.description ? error.description : error.code;
          return { ...payment, status: "failed", failure: { reason, code: error.code } };
        }
        return payment;
      }
    },

    async getPayment(orderId: string): Promise<GatewayPayment | null> {
      const order = await readOrder(orderId);
      return order ? mapPayPalOrder(order) : null;
    },

    async cancel(orderId: string, request: CancelRequest): Promise<Cancellation> {
      const order = await readOrder(orderId);
      if (!order) throw new GatewayError("RESOURCE_NOT_FOUND", `PayPal does not know order ${orderId}`, 404);
      const payment = mapPayPalOrder(order);
      const capture = order.purchase_units?.[0]?.payments?.captures?.[0];
      if (!capture) throw new GatewayError("PAYMENT_NOT_PAID", `PayPal order ${orderId} has no capture to refund (${order.status})`);
      const currency = capture.amount?.currency_code ?? payment.currency;
      const cancellable = payment.amount.paid - payment.amount.cancelled;
      if (request.currentCancellableAmount !== undefined && request.currentCancellableAmount !== cancellable) {
        throw new GatewayError(
          "CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN",
          `PayPal holds ${cancellable} refundable on order ${orderId}, the store expected ${request.currentCancellableAmount}`,
          409,
        );
      }
      if (request.amount !== undefined && (!Number.isSafeInteger(request.amount) || request.amount <= 0)) {
        throw new GatewayError("INVALID_AMOUNT", "A partial refund needs a positive integer amount of minor units");
      }
      const body: Record<string, unknown> = { note_to_payer: request.reason.slice(0, 255) };
      if (request.amount !== undefined) body.amount = { currency_code: currency, value: toPayPalValue(request.amount, currency) };
      if (payment.paymentId) body.invoice_id = payment.paymentId;
      const requestId = request.requestId ?? `${capture.id}-refund-${payment.amount.cancelled}-${request.amount ?? "full"}`;
      const { body: refund } = await call<PayPalRefund>("POST", `/v2/payments/captures/${encodeURIComponent(capture.id)}/refund`, {
        body: JSON.stringify(body),
        requestId,
        representation: true,
      });
      return {
        cancellationId: refund.id,
        status: refundStatus(refund.status),
        amount: refund.amount ? moneyToMinor(refund.amount) : (request.amount ?? cancellable),
      };
    },

    async closeVirtualAccount(): Promise<void> {
      throw new GatewayError("NOT_SUPPORTED", "PayPal has no virtual accounts");
    },

    async verifyWebhook(rawBody: string, headers: Headers): Promise<GatewayWebhook> {
      const fields: Record<string, string> = {};
      for (const [field, header] of Object.entries(WEBHOOK_HEADERS)) {
        const value = headers.get(header);
        if (!value) throw new WebhookVerificationFailed(`The PayPal webhook delivery has no ${header.toUpperCase()} header`);
        fields[field] = value;
      }
      if (!options.webhookId) throw new WebhookVerificationFailed("No PayPal webhook id is configured");
      // The transmission's time against the real clock (options.now is the token cache's, which tests move).
      const problem = paypalDeliveryProblem(fields as Record<keyof typeof WEBHOOK_HEADERS, string>, rawBody, {
        testMode: options.testMode,
        now: Date.now(),
      });
      if (problem) throw new WebhookVerificationFailed(`The PayPal webhook delivery was refused before verification: ${problem}`);
      let event: PayPalWebhookEvent;
      try {
        event = JSON.parse(rawBody) as PayPalWebhookEvent;
      } catch {
        throw new WebhookVerificationFailed("The PayPal webhook body is not JSON");
      }
      if (!event || typeof event !== "object" || typeof event.id !== "string" || typeof event.event_type !== "string") {
        throw new WebhookVerificationFailed("The PayPal webhook body is not an event");
      }
      // The event goes to PayPal byte for byte as it arrived (re-serialising it can change what was signed).
      const payload = `{${Object.entries({ ...fields, webhook_id: options.webhookId })
        .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
        .join(",")},"webhook_event":${rawBody}}`;
      let verification: { verification_status?: string };
      try {
        verification = (
          await call<{ verification_status?: string }>("POST", "/v1/notifications/verify-webhook-signature", { body: payload })
        ).body;
      } catch (error) {
        // PayPal refusing the request itself (400 on a malformed cert URL, …) is a failed verification; outages are not.
        if (
          error instanceof GatewayError &&
          error.status !== undefined &&
          error.status >= 400 &&
          error.status < 500 &&
          error.status !== 429
        ) {
          throw new WebhookVerificationFailed(`PayPal refused to verify the webhook: ${error.code}`);
        }
        throw error;
      }
      if (verification.verification_status !== "SUCCESS") {
        throw new WebhookVerificationFailed(`PayPal answered ${verification.verification_status ?? "no status"} for the webhook signature`);
      }

      const type = event.event_type;
      const resource = event.resource ?? {};
      const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
      let gatewayPaymentId: string | null = null;
      if (type.startsWith("CHECKOUT.ORDER.")) {
        gatewayPaymentId = str(resource.id);
      } else if (type.startsWith("CHECKOUT.PAYMENT-APPROVAL.")) {
        gatewayPaymentId = str(resource.order_id);
      } else if (type.startsWith("PAYMENT.CAPTURE.")) {
        gatewayPaymentId = str(resource.supplementary_data?.related_ids?.order_id);
        if (!gatewayPaymentId && event.resource_type === "refund" && Array.isArray(resource.links)) {
          // Refund (and reversal) resources link `up` to their capture; the capture names the order.
          const up = (resource.links as PayPalLink[]).find((l) => l?.rel === "up" && typeof l.href === "string");
          const captureId = up ? /\/v2\/payments\/captures\/([^/?#]+)/.exec(up.href)?.[1] : undefined;
          if (captureId) gatewayPaymentId = await orderIdOfCapture(decodeURIComponent(captureId));
        }
      }
      return { eventId: event.id, type, gatewayPaymentId };
    },
  };
}
