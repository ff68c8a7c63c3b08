import { createHmac } from "node:crypto";
import { HttpResponse, http } from "msw";

/**
 * PortOne V2's REST contract reproduced with msw over an in-memory store of payments
 * (/work/shared/reference/services.md §1.3 getPayment, §1.4 cancel, §1.5 virtual-account close), plus Standard
 * Webhooks signing the way PortOne signs its deliveries (§1.6). The payment bodies follow the OpenAPI `Payment`
 * schema (discriminated by `status`) with the fields the spec marks required; they are constructed, not captured.
 *
 * Tests put payments into a state with the helpers (`setPayment`, `markPaid`, `issueVirtualAccount`, `markFailed`,
 * `putRaw`) and read what the adapter sent in `requests`.
 */

export const PORTONE_BASE_URL = "https://api.portone.io";
export const PORTONE_API_SECRET = "portone-test-api-secret-0123456789";
export const PORTONE_STORE_ID = "store-4f5e6d7c-0000-4000-8000-000000000001";
/** Standard Webhooks secret: `whsec_` + base64 of the raw key bytes (§1.6). */
export const PORTONE_WEBHOOK_SECRET = `whsec_${Buffer.from("asset-market portone test webhook key").toString("base64")}`;
export const PORTONE_CHANNEL_KEYS = {
  card: "channel-key-card-0001",
  phone: "channel-key-phone-0001",
  kakaopay: "channel-key-kakaopay-0001",
  vbank: "channel-key-vbank-0001",
} as const;

export type PortOnePaymentStatus =
  | "READY"
  | "PAY_PENDING"
  | "VIRTUAL_ACCOUNT_ISSUED"
  | "PAID"
  | "FAILED"
  | "PARTIAL_CANCELLED"
  | "CANCELLED";
export type MockMethod = "card" | "phone" | "kakaopay" | "vbank";

/** PaymentMethod (oneOf on `type`, §1.3). */
export type PortOnePaymentMethod =
  | { type: "PaymentMethodCard"; approvalNumber?: string; card?: Record<string, unknown>; installment?: Record<string, unknown> }
  | { type: "PaymentMethodMobile"; phoneNumber?: string }
  | { type: "PaymentMethodEasyPay"; provider: string; easyPayMethod?: Record<string, unknown> }
  | {
      type: "PaymentMethodVirtualAccount";
      bank?: string;
      accountNumber: string;
      accountType?: "FIXED" | "NORMAL";
      remitteeName?: string;
      remitterName?: string;
      expiredAt?: string;
      issuedAt?: string;
      refundStatus?: "PENDING" | "PARTIAL_REFUND_FAILED" | "FAILED" | "COMPLETED";
    };

/** PaymentCancellation (oneOf on `status`, §1.4). */
export interface PortOneCancellation {
  status: "SUCCEEDED" | "REQUESTED" | "FAILED";
  id: string;
  pgCancellationId?: string;
  totalAmount: number;
  taxFreeAmount: number;
  vatAmount: number;
  reason: string;
  cancelledAt?: string;
  requestedAt: string;
}

/** The Payment body as GET /payments/{paymentId} answers it (§1.3). Status-specific fields are optional here. */
export interface PortOnePayment {
  status: PortOnePaymentStatus | string;
  id: string;
  transactionId: string;
  merchantId: string;
  storeId: string;
  method?: PortOnePaymentMethod;
  channel?: { type: "LIVE" | "TEST"; key?: string; pgProvider: string; pgMerchantId: string };
  version: "V1" | "V2";
  requestedAt: string;
  updatedAt: string;
  statusChangedAt: string;
  orderName: string;
  amount: {
    total: number;
    taxFree: number;
    vat?: number;
    supply?: number;
    discount: number;
    paid: number;
    cancelled: number;
    cancelledTaxFree: number;
  };
  currency: string;
  customer: Record<string, unknown>;
  origin: { platformType: "PC" | "MOBILE" | "API"; ipAddress: string; userAgent?: string; url?: string };
  paidAt?: string;
  pgTxId?: string;
  failedAt?: string;
  failure?: { reason?: string; pgCode?: string; pgMessage?: string };
  cancelledAt?: string;
  cancellations?: PortOneCancellation[];
  disputes?: unknown[];
}

export interface PaymentInit {
  id: string;
  /** Total in minor units (KRW: won). */
  amount: number;
  vat?: number;
  currency?: string;
  method?: MockMethod;
  orderName?: string;
  /** The state to put the payment in; READY by default. */
  status?: PortOnePaymentStatus;
  /** PARTIAL_CANCELLED / CANCELLED: the amount already cancelled (CANCELLED defaults to everything). */
  cancelled?: number;
}

export interface VirtualAccountInit {
  bank?: string;
  accountNumber?: string;
  remitteeName?: string;
  expiredAt?: string;
}

/** What the next cancel call of a payment answers instead of succeeding immediately. */
export type CancelOutcome = { kind: "requested" } | { kind: "pg_error"; pgCode: string; pgMessage: string };

export interface RecordedRequest {
  method: string;
  /** Decoded path, e.g. /payments/order 1/cancel */
  path: string;
  search: URLSearchParams;
  authorization: string | null;
  body: unknown;
}

type ErrorType =
  | "INVALID_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "PAYMENT_NOT_FOUND"
  | "PAYMENT_NOT_PAID"
  | "PAYMENT_ALREADY_CANCELLED"
  | "CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN"
  | "CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT"
  | "PAYMENT_NOT_WAITING_FOR_DEPOSIT"
  | "PG_PROVIDER";

const ERROR_STATUS: Record<ErrorType, number> = {
  INVALID_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PAYMENT_NOT_FOUND: 404,
  PAYMENT_NOT_PAID: 409,
  PAYMENT_ALREADY_CANCELLED: 409,
  CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN: 409,
  CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT: 409,
  PAYMENT_NOT_WAITING_FOR_DEPOSIT: 409,
  PG_PROVIDER: 502,
};

/** Error bodies are `{ type, message }`; PG_PROVIDER adds `pgCode`, `pgMessage` (§1.4). */
function portOneError(type: ErrorType, message: string, extra: Record<string, string> = {}) {
  return HttpResponse.json({ type, message, ...extra }, { status: ERROR_STATUS[type] });
}

const now = () => new Date().toISOString();
let sequence = 0;
const uuid = (prefix: string) => `${prefix}-${Date.now().toString(16)}-${(++sequence).toString().padStart(6, "0")}`;

function methodBody(method: MockMethod, va?: VirtualAccountInit): PortOnePaymentMethod {
  switch (method) {
    case "card":
      return { type: "PaymentMethodCard", approvalNumber: "12345678", card: { publisher: "SHINHAN", issuer: "SHINHAN", brand: "LOCAL" } };
    case "phone":
      return { type: "PaymentMethodMobile", phoneNumber: "01012345678" };
    case "kakaopay":
      return { type: "PaymentMethodEasyPay", provider: "KAKAOPAY", easyPayMethod: { type: "PaymentMethodEasyPayMethodCharge" } };
    case "vbank":
      return {
        type: "PaymentMethodVirtualAccount",
        bank: va?.bank ?? "SHINHAN",
        accountNumber: va?.accountNumber ?? "56211234567890",
        accountType: "NORMAL",
        remitteeName: va?.remitteeName ?? "에셋마켓",
        expiredAt: va?.expiredAt ?? new Date(Date.now() + 86_400_000).toISOString(),
        issuedAt: now(),
      };
  }
}

export interface PortOneMockOptions {
  apiSecret?: string;
  storeId?: string;
  baseUrl?: string;
}

export function createPortOneMock(options: PortOneMockOptions = {}) {
  const apiSecret = options.apiSecret ?? PORTONE_API_SECRET;
  const storeId = options.storeId ?? PORTONE_STORE_ID;
  const base = (options.baseUrl ?? PORTONE_BASE_URL).replace(/\/+$/, "");
  const payments = new Map<string, PortOnePayment>();
  /** The method each payment was requested with (the SDK's payMethod), used when it becomes paid. */
  const requestedMethods = new Map<string, MockMethod>();
  const cancelOutcomes = new Map<string, CancelOutcome>();
  const requests: RecordedRequest[] = [];

  function mustGet(id: string): PortOnePayment {
    const p = payments.get(id);
    if (!p) throw new Error(`portone mock: no payment ${id}`);
    return p;
  }

  function setStatus(p: PortOnePayment, status: PortOnePaymentStatus) {
    p.status = status;
    p.updatedAt = now();
    p.statusChangedAt = p.updatedAt;
  }

  /** A READY payment, as after the browser SDK's requestPayment opened the payment window. */
  function createReady(init: PaymentInit): PortOnePayment {
    const at = now();
    const vat = init.vat ?? Math.round(init.amount / 11);
    const method = init.method ?? "card";
    requestedMethods.set(init.id, method);
    const payment: PortOnePayment = {
      status: "READY",
      id: init.id,
      transactionId: uuid("tx"),
      merchantId: "merchant-00000000-test",
      storeId,
      channel: { type: "TEST", key: PORTONE_CHANNEL_KEYS[method], pgProvider: "INICIS_V2", pgMerchantId: "INIpayTest" },
      version: "V2",
      requestedAt: at,
      updatedAt: at,
      statusChangedAt: at,
      orderName: init.orderName ?? "LUT pack",
      amount: { total: init.amount, taxFree: 0, vat, supply: init.amount - vat, discount: 0, paid: 0, cancelled: 0, cancelledTaxFree: 0 },
      currency: init.currency ?? "KRW",
      customer: { email: "buyer@example.com" },
      origin: { platformType: "PC", ipAddress: "203.0.113.1" },
    };
    payments.set(init.id, payment);
    return payment;
  }

  /** Paid: card/phone/Kakao Pay approved, or the deposit into an issued virtual account arrived (§1.5). */
  function markPaid(id: string): PortOnePayment {
    const p = mustGet(id);
    const requested = requestedMethods.get(id) ?? "card";
    if (p.method?.type !== "PaymentMethodVirtualAccount") p.method = methodBody(requested);
    setStatus(p, "PAID");
    p.paidAt = p.updatedAt;
    p.pgTxId = uuid("pg");
    p.amount.paid = p.amount.total;
    p.cancellations = [];
    p.disputes = [];
    return p;
  }

  /** Virtual account issued, waiting for the deposit (§1.5); account details live in `method`. */
  function issueVirtualAccount(id: string, va: VirtualAccountInit = {}): PortOnePayment {
    const p = mustGet(id);
    requestedMethods.set(id, "vbank");
    p.method = methodBody("vbank", va);
    p.channel = { type: "TEST", key: PORTONE_CHANNEL_KEYS.vbank, pgProvider: "INICIS_V2", pgMerchantId: "INIpayTest" };
    setStatus(p, "VIRTUAL_ACCOUNT_ISSUED");
    p.pgTxId = uuid("pg");
    return p;
  }

  function markFailed(id: string, failure: { reason?: string; pgCode?: string; pgMessage?: string } = {}): PortOnePayment {
    const p = mustGet(id);
    setStatus(p, "FAILED");
    p.failedAt = p.updatedAt;
    p.failure = {
      reason: failure.reason ?? "카드 한도 초과",
      pgCode: failure.pgCode ?? "V810",
      pgMessage: failure.pgMessage ?? "한도초과",
    };
    return p;
  }

  function recordCancellation(
    p: PortOnePayment,
    amount: number,
    reason: string,
    status: PortOneCancellation["status"],
  ): PortOneCancellation {
    const at = now();
    const vatAmount = p.amount.total ? Math.round(((p.amount.vat ?? 0) * amount) / p.amount.total) : 0;
    const cancellation: PortOneCancellation = {
      status,
      id: uuid("cancel"),
      totalAmount: amount,
      taxFreeAmount: 0,
      vatAmount,
      reason,
      requestedAt: at,
      ...(status === "SUCCEEDED" ? { pgCancellationId: uuid("pgcancel"), cancelledAt: at } : {}),
    };
    p.cancellations = [...(p.cancellations ?? []), cancellation];
    if (status === "SUCCEEDED") {
      p.amount.cancelled += amount;
      setStatus(p, p.amount.cancelled >= p.amount.paid ? "CANCELLED" : "PARTIAL_CANCELLED");
      p.cancelledAt = at;
    }
    return cancellation;
  }

  /**
   * Creates a payment and moves it into `init.status` the way PortOne would get there
   * (READY → PAID → PARTIAL_CANCELLED/CANCELLED; READY → VIRTUAL_ACCOUNT_ISSUED; READY → FAILED).
   */
  function setPayment(init: PaymentInit): PortOnePayment {
    const p = createReady(init);
    switch (init.status ?? "READY") {
      case "READY":
        break;
      case "PAY_PENDING":
        if (init.method) p.method = methodBody(init.method);
        setStatus(p, "PAY_PENDING");
        break;
      case "VIRTUAL_ACCOUNT_ISSUED":
        issueVirtualAccount(init.id);
        break;
      case "PAID":
        if (init.method === "vbank") issueVirtualAccount(init.id);
        markPaid(init.id);
        break;
      case "FAILED":
        markFailed(init.id);
        break;
      case "PARTIAL_CANCELLED":
      case "CANCELLED": {
        if (init.method === "vbank") issueVirtualAccount(init.id);
        markPaid(init.id);
        const cancelled = init.cancelled ?? (init.status === "CANCELLED" ? init.amount : Math.floor(init.amount / 2));
        recordCancellation(p, cancelled, "test setup", "SUCCEEDED");
        break;
      }
    }
    return p;
  }

  function authorize(request: Request): Response | undefined {
    if (request.headers.get("authorization") !== `PortOne ${apiSecret}`) {
      return portOneError("UNAUTHORIZED", "인증 정보가 올바르지 않습니다.");
    }
    // `storeId` is optional (defaults to the credential's store); another store's id is refused (§1.1, 403).
    const requested = new URL(request.url).searchParams.get("storeId");
    if (requested !== null && requested !== storeId) return portOneError("FORBIDDEN", "요청된 상점에 대한 권한이 없습니다.");
    return undefined;
  }

  async function record(request: Request): Promise<unknown> {
    const url = new URL(request.url);
    const text = request.method === "GET" ? "" : await request.clone().text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    requests.push({
      method: request.method,
      path: decodeURIComponent(url.pathname),
      search: url.searchParams,
      authorization: request.headers.get("authorization"),
      body,
    });
    return body;
  }

  const notFound = (id: string) => portOneError("PAYMENT_NOT_FOUND", `결제 건이 존재하지 않습니다: ${id}`);

  const handlers = [
    // §1.3 GET /payments/{paymentId}: 200 Payment | 401 | 403 | 404 PAYMENT_NOT_FOUND.
    http.get(`${base}/payments/:paymentId`, async ({ request, params }) => {
      await record(request);
      const denied = authorize(request);
      if (denied) return denied;
      const id = String(params.paymentId);
      const p = payments.get(id);
      return p ? HttpResponse.json(structuredClone(p)) : notFound(id);
    }),

    // §1.4 POST /payments/{paymentId}/cancel: CancelPaymentBody → { cancellation } | 400 | 404 | 409 | 502.
    http.post(`${base}/payments/:paymentId/cancel`, async ({ request, params }) => {
      const raw = await record(request);
      const denied = authorize(request);
      if (denied) return denied;
      const id = String(params.paymentId);
      const p = payments.get(id);
      if (!p) return notFound(id);

      const body = (typeof raw === "object" && raw !== null ? raw : {}) as {
        reason?: unknown;
        amount?: unknown;
        currentCancellableAmount?: unknown;
        refundAccount?: { bank?: unknown; number?: unknown; holderName?: unknown };
      };
      if (typeof body.reason !== "string" || !body.reason) return portOneError("INVALID_REQUEST", "reason은 필수입니다.");
      if (body.amount !== undefined && !(Number.isInteger(body.amount) && (body.amount as number) > 0)) {
        return portOneError("INVALID_REQUEST", "amount는 양의 정수여야 합니다.");
      }
      if (p.status === "CANCELLED") return portOneError("PAYMENT_ALREADY_CANCELLED", "이미 취소된 결제입니다.");
      if (p.status !== "PAID" && p.status !== "PARTIAL_CANCELLED") return portOneError("PAYMENT_NOT_PAID", "결제가 완료되지 않았습니다.");

      const cancellable = p.amount.paid - p.amount.cancelled;
      // Optimistic check: cancel only when the caller's view of the balance is current.
      if (body.currentCancellableAmount !== undefined && body.currentCancellableAmount !== cancellable) {
        return portOneError("CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN", "취소 가능 잔액 검증에 실패했습니다.");
      }
      const amount = body.amount === undefined ? cancellable : (body.amount as number);
      if (amount > cancellable)
        return portOneError("CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT", "결제 취소 금액이 취소 가능 금액을 초과했습니다.");
      // A virtual-account refund goes to an account the buyer names: mandatory (cancel/v2/readme.mdx).
      if (p.method?.type === "PaymentMethodVirtualAccount") {
        const acc = body.refundAccount;
        if (!acc || typeof acc.bank !== "string" || typeof acc.number !== "string" || typeof acc.holderName !== "string") {
          return portOneError("INVALID_REQUEST", "가상계좌 결제 취소에는 환불 계좌(refundAccount)가 필요합니다.");
        }
      }

      const outcome = cancelOutcomes.get(id);
      cancelOutcomes.delete(id);
      if (outcome?.kind === "pg_error") {
        return portOneError("PG_PROVIDER", "PG사에서 오류가 발생했습니다.", { pgCode: outcome.pgCode, pgMessage: outcome.pgMessage });
      }
      const cancellation = recordCancellation(p, amount, body.reason, outcome?.kind === "requested" ? "REQUESTED" : "SUCCEEDED");
      return HttpResponse.json({ cancellation });
    }),

    // §1.5 POST /payments/{paymentId}/virtual-account/close: 200 { closedAt } | 409 PAYMENT_NOT_WAITING_FOR_DEPOSIT.
    http.post(`${base}/payments/:paymentId/virtual-account/close`, async ({ request, params }) => {
      await record(request);
      const denied = authorize(request);
      if (denied) return denied;
      const id = String(params.paymentId);
      const p = payments.get(id);
      if (!p) return notFound(id);
      if (p.status !== "VIRTUAL_ACCOUNT_ISSUED") return portOneError("PAYMENT_NOT_WAITING_FOR_DEPOSIT", "입금 대기 중인 결제가 아닙니다.");
      const closedAt = now();
      // Which status a closed account leaves is not documented (§1.5 [unverified]); the mock calls it CANCELLED.
      setStatus(p, "CANCELLED");
      p.cancelledAt = closedAt;
      return HttpResponse.json({ closedAt });
    }),
  ];

  return {
    handlers,
    /** Every request the handlers saw, oldest first. */
    requests,
    setPayment,
    markPaid,
    issueVirtualAccount,
    markFailed,
    /** Stores a Payment body exactly as given (for statuses and shapes the helpers do not produce). */
    putRaw(payment: PortOnePayment) {
      payments.set(payment.id, structuredClone(payment));
    },
    /** The stored body (a copy). */
    payment(id: string): PortOnePayment | undefined {
      const p = payments.get(id);
      return p ? structuredClone(p) : undefined;
    },
    /** The next cancel call of `id` answers `outcome` (REQUESTED cancellation, or 502 PG_PROVIDER). */
    nextCancel(id: string, outcome: CancelOutcome) {
      cancelOutcomes.set(id, outcome);
    },
    reset() {
      payments.clear();
      requestedMethods.clear();
      cancelOutcomes.clear();
      requests.length = 0;
    },
  };
}

export type PortOneMock = ReturnType<typeof createPortOneMock>;

/** The shared instance tests use (`portone.setPayment(...)`); reset it in afterEach. */
export const portone = createPortOneMock();
export const portoneHandlers = portone.handlers;

/**
 * Signs a webhook body as PortOne does (Standard Webhooks, §1.6), written with node:crypto independently of the
 * `standardwebhooks` package the adapter verifies with: key = base64-decoded secret (optional `whsec_` prefix),
 * signature = `v1,` + base64(HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")).
 */
export function signPortOneWebhook(
  body: string,
  options: { secret?: string; id?: string; timestamp?: number; extraSignatures?: string[] } = {},
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  const secret = options.secret ?? PORTONE_WEBHOOK_SECRET;
  const id = options.id ?? `msg_${uuid("wh")}`;
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return {
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": [...(options.extraSignatures ?? []), `v1,${signature}`].join(" "),
  };
}

/** A webhook body of version 2024-04-25 (§1.6). */
export function portOneWebhookBody(type: string, data: Record<string, string>, timestamp = now()): string {
  return JSON.stringify({ type, timestamp, data: { storeId: PORTONE_STORE_ID, transactionId: uuid("tx"), ...data } });
}
