/**
 * PortOne V2 adapter (card, mobile phone, Kakao Pay, virtual account) behind the PaymentGateway interface.
 * Contract: /work/shared/reference/services.md §1 (read from PortOne's OpenAPI spec v2.openapi.json, the
 * browser-SDK schema and the server SDK; nothing here was tried against the live service).
 *
 * Flow (§1.2): the store page runs the browser SDK's `requestPayment` with the parameters `begin` returns; the
 * payer comes back to `returnUrl?paymentId=…` (plus `code`, `message`, `pgCode`, `pgMessage` on failure) and
 * PortOne posts a signed webhook. PortOne needs no merchant call after the redirect: the store only re-reads the
 * payment (`GET /payments/{paymentId}`) and must compare `amount.total` with its order itself.
 *
 * The API secret goes in `Authorization: PortOne <secret>` (§1.1) and never into an error message.
 */
import { Webhook } from "standardwebhooks";
import {
  type Cancellation,
  type CancelRequest,
  type Checkout,
  GatewayError,
  type GatewayPayment,
  type GatewayStatus,
  type GatewayWebhook,
  PAY_METHODS,
  type PayMethod,
  type PaymentGateway,
  type PaymentRequest,
  WebhookVerificationFailed,
} from "./gateway";

/** The methods PortOne serves for this store; each needs its own channel (console → 결제연동 → 채널). */
export type PortOneMethod = Exclude<PayMethod, "paypal">;

export interface PortOneOptions {
  /** V2 API secret (console → 결제연동 → 연동 정보 → API Secret). */
  apiSecret: string;
  /** Webhook secret (Standard Webhooks; base64, optional `whsec_` prefix). */
  webhookSecret: string;
  storeId: string;
  /** Channel key per method; a method without one is not offered. */
  channelKeys: Partial<Record<PortOneMethod, string>>;
  /** Defaults to https://api.portone.io (single host; test vs live is decided by the channel, §1.1). */
  baseUrl?: string;
  fetchImpl?: typeof fetch;
  /** Whether the channels are TEST channels (shown to the payer). */
  testMode: boolean;
  /** Per-request timeout of the REST calls; default 10 s. */
  timeoutMs?: number;
}

export const PORTONE_BASE_URL = "https://api.portone.io";
const DEFAULT_TIMEOUT_MS = 10_000;

// ---------------------------------------------------------------------------------------------------------------
// Wire types (§1.3, §1.4, §1.5, §1.6): only the fields the adapter reads. Everything is optional on purpose: the
// answers are parsed defensively and unknown fields are ignored.
// ---------------------------------------------------------------------------------------------------------------

interface PortOnePaymentMethodBody {
  type?: string;
  /** PaymentMethodEasyPay */
  provider?: string;
  /** PaymentMethodVirtualAccount */
  bank?: string;
  accountNumber?: string;
  remitteeName?: string;
  expiredAt?: string;
}

interface PortOnePaymentBody {
  status?: string;
  id?: string;
  currency?: string;
  amount?: { total?: number; paid?: number; cancelled?: number };
  method?: PortOnePaymentMethodBody;
  paidAt?: string;
  failure?: { reason?: string; pgCode?: string; pgMessage?: string };
}

interface PortOneCancelBody {
  cancellation?: { status?: string; id?: string; totalAmount?: number };
}

interface PortOneErrorBody {
  type?: string;
  message?: string;
  pgCode?: string;
  pgMessage?: string;
}

interface PortOneWebhookBody {
  type?: unknown;
  data?: { paymentId?: unknown };
}

/** Payment `status` → the store's status (§1.3; `PENDING` is the filter enum's spelling of `PAY_PENDING`). */
const STATUS: Record<string, GatewayStatus> = {
  READY: "ready",
  PAY_PENDING: "pending",
  PENDING: "pending",
  VIRTUAL_ACCOUNT_ISSUED: "vbank_issued",
  PAID: "paid",
  FAILED: "failed",
  PARTIAL_CANCELLED: "partial_cancelled",
  CANCELLED: "cancelled",
};

const CANCELLATION_STATUS: Record<string, Cancellation["status"]> = {
  SUCCEEDED: "succeeded",
  REQUESTED: "requested",
  FAILED: "failed",
};

export function createPortOneGateway(options: PortOneOptions): PaymentGateway {
  const baseUrl = (options.baseUrl ?? PORTONE_BASE_URL).replace(/\/+$/, "");
  const fetchImpl = options.fetchImpl ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const channelKeyOf = (method: PayMethod): string | undefined =>
    method === "paypal" ? undefined : options.channelKeys[method] || undefined;
  const methods = PAY_METHODS.filter((m) => channelKeyOf(m) !== undefined);

  /** Removes the API secret from any text that may reach a log or a page. */
  const redact = (text: string) => (options.apiSecret ? text.split(options.apiSecret).join("[redacted]") : text);

  /**
   * One REST call. Non-2xx answers become GatewayError(type, message, httpStatus) from PortOne's `{ type, message }`
   * error body (§1.4; `PG_PROVIDER` adds `pgCode`, `pgMessage`); network failures and timeouts GatewayError("NETWORK").
   */
  async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const url = new URL(`${baseUrl}${path}`);
    // Optional on every endpoint (defaults to the credential's store, §1.1); sent so a multi-store secret stays explicit.
    if (options.storeId) url.searchParams.set("storeId", options.storeId);
    const headers: Record<string, string> = { authorization: `PortOne ${options.apiSecret}`, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";

    let res: Response;
    try {
      res = await fetchImpl(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      const detail = timedOut ? `no answer within ${timeoutMs} ms` : error instanceof Error ? error.message : String(error);
      throw new GatewayError("NETWORK", redact(`PortOne ${method} ${path}: ${detail}`));
    }

    let text: string;
    try {
      text = await res.text();
    } catch (error) {
      throw new GatewayError("NETWORK", redact(`PortOne ${method} ${path}: ${error instanceof Error ? error.message : String(error)}`));
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }

    if (!res.ok) {
      const err = (isObject(json) ? json : {}) as PortOneErrorBody;
      const code = typeof err.type === "string" && err.type ? err.type : `HTTP_${res.status}`;
      let message = typeof err.message === "string" && err.message ? err.message : `PortOne answered ${res.status}`;
      if (err.pgCode || err.pgMessage) message += ` (pgCode ${err.pgCode ?? "-"}: ${err.pgMessage ?? "-"})`;
      throw new GatewayError(code, redact(message), res.status);
    }
    if (!isObject(json))
      throw new GatewayError("INVALID_RESPONSE", `PortOne ${method} ${path}: the answer is not a JSON object`, res.status);
    return json as T;
  }

  const paymentPath = (id: string) => `/payments/${encodeURIComponent(id)}`;

  async function getPayment(gatewayPaymentId: string): Promise<GatewayPayment | null> {
    try {
      return toGatewayPayment(await call<PortOnePaymentBody>("GET", paymentPath(gatewayPaymentId)), gatewayPaymentId);
    } catch (error) {
      // 404 PAYMENT_NOT_FOUND is "the gateway does not know it" (§1.3); every other error is thrown.
      if (error instanceof GatewayError && error.code === "PAYMENT_NOT_FOUND") return null;
      throw error;
    }
  }

  return {
    name: "portone",
    testMode: options.testMode,
    methods,

    async begin(request: PaymentRequest): Promise<Checkout> {
      const channelKey = channelKeyOf(request.method);
      if (!channelKey) {
        throw new GatewayError("METHOD_NOT_AVAILABLE", `PortOne has no channel for the payment method "${request.method}"`);
      }
      return { kind: "browser-sdk", gatewayPaymentId: request.paymentId, sdk: sdkParameters(request, options.storeId, channelKey) };
    },

    async confirm(gatewayPaymentId) {
      // Nothing to finish on PortOne's side (§1.2 step 3): even when the redirect carries `code` (a failure) the
      // payment is read, because only the payment as PortOne holds it counts, not what the browser says.
      const payment = await getPayment(gatewayPaymentId);
      if (!payment) throw new GatewayError("PAYMENT_NOT_FOUND", `PortOne does not know the payment ${gatewayPaymentId}`, 404);
      return payment;
    },

    getPayment,

    async cancel(gatewayPaymentId: string, request: CancelRequest): Promise<Cancellation> {
      // CancelPaymentBody (§1.4): `amount` omitted = full cancel; `refundAccount` is mandatory for virtual-account
      // refunds (PortOne answers 400 without it). `requestId` has no PortOne counterpart and is not sent.
      const body: Record<string, unknown> = { reason: request.reason };
      if (request.amount !== undefined) body.amount = request.amount;
      if (request.currentCancellableAmount !== undefined) body.currentCancellableAmount = request.currentCancellableAmount;
      if (request.refundAccount) {
        const { bank, number, holderName, holderPhoneNumber } = request.refundAccount;
        body.refundAccount = { bank, number, holderName, ...(holderPhoneNumber ? { holderPhoneNumber } : {}) };
      }
      const answer = await call<PortOneCancelBody>("POST", `${paymentPath(gatewayPaymentId)}/cancel`, body);
      const c = answer.cancellation;
      const status = c && typeof c.status === "string" ? CANCELLATION_STATUS[c.status] : undefined;
      if (!c || !status || typeof c.id !== "string" || typeof c.totalAmount !== "number") {
        throw new GatewayError("INVALID_RESPONSE", "PortOne's cancel answer has no valid cancellation", 200);
      }
      return { cancellationId: c.id, status, amount: c.totalAmount };
    },

    async closeVirtualAccount(gatewayPaymentId: string): Promise<void> {
      // §1.5: no body; 200 { closedAt } or 409 PAYMENT_NOT_WAITING_FOR_DEPOSIT (thrown as GatewayError).
      await call<{ closedAt?: string }>("POST", `${paymentPath(gatewayPaymentId)}/virtual-account/close`);
    },

    async verifyWebhook(rawBody: string, headers: Headers): Promise<GatewayWebhook> {
      // §1.6: Standard Webhooks. `standardwebhooks` strips `whsec_`, base64-decodes the secret, checks
      // HMAC-SHA256("id.timestamp.body") against every `v1,<base64>` signature and rejects |now − ts| > 300 s.
      const id = headers.get("webhook-id");
      const timestamp = headers.get("webhook-timestamp");
      const signature = headers.get("webhook-signature");
      if (!id || !timestamp || !signature)
        throw new WebhookVerificationFailed("missing webhook-id, webhook-timestamp or webhook-signature");
      // The library parses the timestamp with parseInt, which would accept "123abc": insist on plain digits.
      if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationFailed("webhook-timestamp is not a unix time in seconds");

      let payload: unknown;
      try {
        const webhook = new Webhook(options.webhookSecret);
        payload = webhook.verify(rawBody, { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature });
      } catch (error) {
        // Verification errors, a malformed secret and a signed but non-JSON body all end here.
        throw new WebhookVerificationFailed(`PortOne webhook rejected: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!isObject(payload)) throw new WebhookVerificationFailed("PortOne webhook body is not a JSON object");
      const event = payload as PortOneWebhookBody;
      if (typeof event.type !== "string" || !event.type) throw new WebhookVerificationFailed("PortOne webhook body has no type");
      // Unknown types (BillingKey.*, future ones) are accepted, not errored (§1.6); they may carry no paymentId.
      const paymentId =
        isObject(event.data) && typeof event.data.paymentId === "string" && event.data.paymentId ? event.data.paymentId : null;
      return { eventId: id, type: event.type, gatewayPaymentId: paymentId };
    },
  };
}

/** The browser SDK's `requestPayment` parameters (§1.2; enums carry their `CURRENCY_`, `EASY_PAY_PROVIDER_`… prefixes). */
function sdkParameters(request: PaymentRequest, storeId: string, channelKey: string): Record<string, unknown> {
  const sdk: Record<string, unknown> = {
    storeId,
    channelKey,
    paymentId: request.paymentId,
    orderName: request.orderName,
    // KRW in whole won and other currencies in minor units: both equal the store's minor units.
    totalAmount: request.amount,
    currency: `CURRENCY_${request.currency}`,
    redirectUrl: request.returnUrl,
    noticeUrls: [request.webhookUrl],
    customer: { email: request.buyer.email, ...(request.buyer.name ? { fullName: request.buyer.name } : {}) },
    vatAmount: request.vat,
    locale: request.locale === "ko" ? "KO_KR" : "EN_US",
  };
  switch (request.method) {
    case "card":
      sdk.payMethod = "CARD";
      break;
    case "phone":
      // KG Inicis requires productType for 휴대폰 소액결제; a digital-goods store sends DIGITAL (§1.2).
      sdk.payMethod = "MOBILE";
      sdk.productType = "PRODUCT_TYPE_DIGITAL";
      break;
    case "kakaopay":
      sdk.payMethod = "EASY_PAY";
      sdk.easyPay = { easyPayProvider: "EASY_PAY_PROVIDER_KAKAOPAY" };
      // The Kakao Pay channel supports the KO_KR locale only (§1.2, pg/v2/kakaopay.mdx).
      sdk.locale = "KO_KR";
      break;
    case "vbank":
      sdk.payMethod = "VIRTUAL_ACCOUNT";
      // Without a deadline the PG's default validity applies.
      sdk.virtualAccount = request.vbankDueAt ? { accountExpiry: { dueDate: seoulDateTime(request.vbankDueAt) } } : {};
      break;
    default:
      throw new GatewayError("METHOD_NOT_AVAILABLE", `PortOne does not take the payment method "${request.method}"`);
  }
  return sdk;
}

/**
 * ISO 8601 instant → "YYYY-MM-DD HH:mm:ss" wall-clock time in Asia/Seoul. The SDK's `dueDate` carries no zone and
 * PortOne/the Korean PGs read it as KST (§1.2/§1.5, marked [unverified] there).
 */
export function seoulDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new GatewayError("INVALID_REQUEST", `vbankDueAt is not a date: ${iso}`);
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Asia/Seoul",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "00";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")}:${part("second")}`;
}

/** PortOne's Payment (oneOf on `status`, §1.3) → the store's GatewayPayment. */
function toGatewayPayment(body: PortOnePaymentBody, requestedId: string): GatewayPayment {
  const status = typeof body.status === "string" ? STATUS[body.status] : undefined;
  if (!status) throw new GatewayError("INVALID_RESPONSE", `PortOne answered an unknown payment status: ${String(body.status)}`, 200);
  const id = typeof body.id === "string" && body.id ? body.id : requestedId;
  const amount = body.amount ?? {};
  const payment: GatewayPayment = {
    gatewayPaymentId: id,
    // PortOne's payment id is the store's own paymentId (§1.2).
    paymentId: id,
    status,
    // The REST API answers bare codes ("KRW"); tolerate the SDK's "CURRENCY_KRW" spelling too.
    currency: typeof body.currency === "string" ? body.currency.replace(/^CURRENCY_/, "") : "",
    amount: { total: num(amount.total), paid: num(amount.paid), cancelled: num(amount.cancelled) },
  };
  const method = body.method ? toPayMethod(body.method) : undefined;
  if (method) payment.method = method;
  if (typeof body.paidAt === "string") payment.paidAt = body.paidAt;
  if (body.method?.type === "PaymentMethodVirtualAccount" && typeof body.method.accountNumber === "string") {
    const va = body.method;
    payment.vbank = {
      bank: va.bank ?? "",
      accountNumber: va.accountNumber ?? "",
      ...(va.remitteeName ? { holder: va.remitteeName } : {}),
      ...(va.expiredAt ? { dueAt: va.expiredAt } : {}),
    };
  }
  if (status === "failed" || body.failure) {
    const f = body.failure ?? {};
    payment.failure = {
      reason: f.reason || f.pgMessage || "PortOne reported the payment as failed",
      ...(f.pgCode ? { code: f.pgCode } : {}),
    };
  }
  return payment;
}

/** PaymentMethod (oneOf on `type`, §1.3) → PayMethod; methods this store does not sell through PortOne map to none. */
function toPayMethod(method: PortOnePaymentMethodBody): PayMethod | undefined {
  switch (method.type) {
    case "PaymentMethodCard":
      return "card";
    case "PaymentMethodMobile":
      return "phone";
    case "PaymentMethodVirtualAccount":
      return "vbank";
    case "PaymentMethodEasyPay":
      return method.provider === "KAKAOPAY" ? "kakaopay" : method.provider === "PAYPAL" ? "paypal" : undefined;
    default:
      return undefined;
  }
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
