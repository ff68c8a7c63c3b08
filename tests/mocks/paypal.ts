import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { crc32 } from "node:zlib";
import { HttpResponse, http } from "msw";

/**
 * PayPal's REST contract on the sandbox host (services.md §3), with an in-memory store: OAuth client credentials,
 * Orders v2 (create, get, capture), Payments v2 (get capture, refund) and Webhooks v1 (verify-webhook-signature).
 * Tests drive what PayPal's side does: the buyer approves (choosing how the capture will end), an eCheck clears or
 * is denied, someone else captures the order, tokens are revoked, and signed webhook deliveries are built.
 */
export const PAYPAL_SANDBOX = "https://api-m.sandbox.paypal.com";
export const PAYPAL_CLIENT_ID = "AeTestClientId-market";
export const PAYPAL_CLIENT_SECRET = "EFtestClientSecret-never-log-me";
export const PAYPAL_WEBHOOK_ID = "8PT597110X687430LKGECATA";
export const PAYPAL_CERT_URL = "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-mock";
/** Only this mock knows it: it stands in for PayPal's private signing key. */
const SIGNING_KEY = "paypal-mock-signing-key";

/** How the capture of an approved order ends. */
export type CaptureOutcome =
  /** 201, capture COMPLETED. */
  | "COMPLETED"
  /** 201, capture PENDING with status_details.reason (ECHECK by default) until clearECheck/denyECheck. */
  | "PENDING"
  /** 201, order COMPLETED but capture DECLINED. */
  | "DECLINED"
  /** 201, order COMPLETED but capture FAILED. */
  | "FAILED"
  /** 422 INSTRUMENT_DECLINED, the order stays APPROVED. */
  | "INSTRUMENT_DECLINED";

type Money = { currency_code: string; value: string };
type Link = { href: string; rel: string; method: string };

interface MockOrder {
  id: string;
  intent: string;
  status: "CREATED" | "PAYER_ACTION_REQUIRED" | "APPROVED" | "COMPLETED" | "VOIDED";
  unit: Record<string, unknown> & { reference_id: string; amount: Money; invoice_id?: string; custom_id?: string };
  experience: Record<string, unknown> | null;
  payer: { payerId: string; email: string } | null;
  outcome: CaptureOutcome;
  pendingReason: string;
  captureId: string | null;
  createTime: string;
  updateTime: string;
}
interface MockCapture {
  id: string;
  orderId: string;
  status: "COMPLETED" | "PENDING" | "DECLINED" | "FAILED" | "PARTIALLY_REFUNDED" | "REFUNDED";
  reason: string | null;
  amount: Money;
  refundIds: string[];
  createTime: string;
  updateTime: string;
}
interface MockRefund {
  id: string;
  captureId: string;
  status: "COMPLETED" | "PENDING" | "FAILED" | "CANCELLED";
  amount: Money;
  noteToPayer?: string;
  invoiceId?: string;
  createTime: string;
  updateTime: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A webhook delivery as PayPal posts it: the raw body and its transmission headers. */
export interface SignedDelivery {
  body: string;
  headers: Headers;
}

const CURRENCIES = new Set([
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
const decimals = (currency: string) => (["HUF", "JPY", "TWD"].includes(currency) ? 0 : 2);
const VALUE = /^((-?[0-9]+)|(-?([0-9]+)?[.][0-9]+))$/;

/** PayPal-style 17-character id. */
const pid = () =>
  randomBytes(17)
    .toString("base64")
    .replace(/[^A-Z0-9]/gi, "")
    .toUpperCase()
    .padEnd(17, "X")
    .slice(0, 17);
const debugId = () => randomBytes(6).toString("hex");
const iso = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

function toMinor(money: Money): number {
  const [whole, fraction = ""] = money.value.split(".");
  const d = decimals(money.currency_code);
  return Number(whole) * 10 ** d + Number(fraction.padEnd(d, "0").slice(0, d) || "0");
}
function toValue(minor: number, currency: string): string {
  const d = decimals(currency);
  if (d === 0) return String(minor);
  const s = String(minor).padStart(d + 1, "0");
  return `${s.slice(0, -d)}.${s.slice(-d)}`;
}

type Issue = { issue: string; description: string; field?: string; location?: string };

function errorBody(status: number, name: string, message: string, details: Issue[] = []) {
  return HttpResponse.json({ name, message, debug_id: debugId(), details, links: [] }, { status });
}
const unprocessable = (issue: string, description: string) =>
  errorBody(
    422,
    "UNPROCESSABLE_ENTITY",
    "The requested action could not be performed, semantically incorrect, or failed business validation.",
    [{ issue, description }],
  );
const invalidRequest = (issue: string, field: string, description: string) =>
  errorBody(400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", [
    { field, location: "body", issue, description },
  ]);
const notFound = () =>
  errorBody(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
    { issue: "INVALID_RESOURCE_ID", description: "Specified resource ID does not exist. Please check the resource ID and try again." },
  ]);

/** Checks a money object as PayPal's schema does; answers the error response, or null when valid. */
function moneyError(money: unknown, field: string): Response | null {
  if (!money || typeof money !== "object")
    return invalidRequest("MISSING_REQUIRED_PARAMETER", field, "A required field / parameter is missing.");
  const m = money as Partial<Money>;
  if (typeof m.currency_code !== "string") {
    return invalidRequest("MISSING_REQUIRED_PARAMETER", `${field}/currency_code`, "A required field / parameter is missing.");
  }
  if (!CURRENCIES.has(m.currency_code)) return unprocessable("CURRENCY_NOT_SUPPORTED", "Currency code is not currently supported.");
  if (typeof m.value !== "string" || !VALUE.test(m.value) || m.value.startsWith("-")) {
    return invalidRequest("INVALID_PARAMETER_VALUE", `${field}/value`, "The value of a field is invalid.");
  }
  const fraction = m.value.split(".")[1] ?? "";
  if (fraction.length > decimals(m.currency_code)) {
    return unprocessable("DECIMAL_PRECISION", "If the currency supports decimals, only two decimal place precision is supported.");
  }
  return null;
}

export interface PayPalMockOptions {
  /** expires_in of issued tokens (seconds); PayPal's are about 9 hours. */
  tokenTtlSeconds?: number;
}

export function createPayPalMock(mockOptions: PayPalMockOptions = {}) {
  const orders = new Map<string, MockOrder>();
  const captures = new Map<string, MockCapture>();
  const refunds = new Map<string, MockRefund>();
  /** PayPal-Request-Id → the resource it created (replays answer its latest state with 200). */
  const idempotency = new Map<string, string>();
  const tokens = new Set<string>();
  const requests: RecordedRequest[] = [];
  let tokenCalls = 0;
  let nextRefundStatus: MockRefund["status"] = "COMPLETED";

  // --- representations ----------------------------------------------------------------------------------------------

  const captureLinks = (c: MockCapture): Link[] => [
    { href: `${PAYPAL_SANDBOX}/v2/payments/captures/${c.id}`, rel: "self", method: "GET" },
    { href: `${PAYPAL_SANDBOX}/v2/payments/captures/${c.id}/refund`, rel: "refund", method: "POST" },
    { href: `${PAYPAL_SANDBOX}/v2/checkout/orders/${c.orderId}`, rel: "up", method: "GET" },
  ];

  function captureJson(c: MockCapture, withSupplementary: boolean) {
    const order = orders.get(c.orderId);
    const fee = c.status === "DECLINED" || c.status === "FAILED" ? 0 : Math.round(toMinor(c.amount) * 0.0349) + 49;
    return {
      id: c.id,
      status: c.status,
      ...(c.reason ? { status_details: { reason: c.reason } } : {}),
      amount: c.amount,
      final_capture: true,
      seller_protection: { status: "ELIGIBLE", dispute_categories: ["ITEM_NOT_RECEIVED", "UNAUTHORIZED_TRANSACTION"] },
      seller_receivable_breakdown: {
        gross_amount: c.amount,
        paypal_fee: { currency_code: c.amount.currency_code, value: toValue(fee, c.amount.currency_code) },
        net_amount: { currency_code: c.amount.currency_code, value: toValue(toMinor(c.amount) - fee, c.amount.currency_code) },
      },
      ...(order?.unit.invoice_id ? { invoice_id: order.unit.invoice_id } : {}),
      ...(order?.unit.custom_id ? { custom_id: order.unit.custom_id } : {}),
      ...(withSupplementary ? { supplementary_data: { related_ids: { order_id: c.orderId } } } : {}),
      links: captureLinks(c),
      create_time: c.createTime,
      update_time: c.updateTime,
    };
  }

  function refundJson(r: MockRefund) {
    return {
      id: r.id,
      amount: r.amount,
      ...(r.invoiceId ? { invoice_id: r.invoiceId } : {}),
      ...(r.noteToPayer ? { note_to_payer: r.noteToPayer } : {}),
      seller_payable_breakdown: {
        gross_amount: r.amount,
        paypal_fee: { currency_code: r.amount.currency_code, value: toValue(0, r.amount.currency_code) },
        net_amount: r.amount,
        total_refunded_amount: r.amount,
      },
      status: r.status,
      links: [
        { href: `${PAYPAL_SANDBOX}/v2/payments/refunds/${r.id}`, rel: "self", method: "GET" },
        { href: `${PAYPAL_SANDBOX}/v2/payments/captures/${r.captureId}`, rel: "up", method: "GET" },
      ],
      create_time: r.createTime,
      update_time: r.updateTime,
    };
  }

  function orderLinks(o: MockOrder): Link[] {
    const links: Link[] = [{ href: `${PAYPAL_SANDBOX}/v2/checkout/orders/${o.id}`, rel: "self", method: "GET" }];
    if (o.status === "PAYER_ACTION_REQUIRED") {
      links.push({ href: `https://www.sandbox.paypal.com/checkoutnow?token=${o.id}`, rel: "payer-action", method: "GET" });
    } else if (o.status === "CREATED") {
      links.push({ href: `https://www.sandbox.paypal.com/checkoutnow?token=${o.id}`, rel: "approve", method: "GET" });
      links.push({ href: `${PAYPAL_SANDBOX}/v2/checkout/orders/${o.id}`, rel: "update", method: "PATCH" });
    }
    if (o.status === "APPROVED")
      links.push({ href: `${PAYPAL_SANDBOX}/v2/checkout/orders/${o.id}/capture`, rel: "capture", method: "POST" });
    return links;
  }

  function orderJson(o: MockOrder) {
    const capture = o.captureId ? captures.get(o.captureId) : undefined;
    const payments = capture
      ? {
          payments: {
            captures: [captureJson(capture, false)],
            ...(capture.refundIds.length ? { refunds: capture.refundIds.map((id) => refundJson(refunds.get(id) as MockRefund)) } : {}),
          },
        }
      : {};
    return {
      id: o.id,
      intent: o.intent,
      status: o.status,
      payment_source: {
        paypal: o.payer
          ? {
              email_address: o.payer.email,
              account_id: o.payer.payerId,
              account_status: "VERIFIED",
              name: { given_name: "Test", surname: "Buyer" },
            }
          : {},
      },
      purchase_units: [{ ...o.unit, payee: { email_address: "merchant@example.com", merchant_id: "MOCKMERCHANT01" }, ...payments }],
      ...(o.payer
        ? { payer: { name: { given_name: "Test", surname: "Buyer" }, email_address: o.payer.email, payer_id: o.payer.payerId } }
        : {}),
      create_time: o.createTime,
      update_time: o.updateTime,
      links: orderLinks(o),
    };
  }

  const minimalOrder = (o: MockOrder) => ({ id: o.id, status: o.status, links: orderLinks(o) });
  const wantsRepresentation = (request: Request) => request.headers.get("prefer") === "return=representation";

  // --- plumbing -----------------------------------------------------------------------------------------------------

  async function record(request: Request): Promise<unknown> {
    const text = await request.text();
    let body: unknown = text;
    if (request.headers.get("content-type")?.includes("application/json")) {
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = Symbol.for("malformed");
      }
    } else if (request.headers.get("content-type")?.includes("application/x-www-form-urlencoded")) {
      body = Object.fromEntries(new URLSearchParams(text));
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      headers[key] = value;
    });
    requests.push({ method: request.method, path: new URL(request.url).pathname, headers, body });
    return body;
  }

  /** 401 as PayPal answers an unknown or revoked bearer token; null when the token is good. */
  function unauthorized(request: Request): Response | null {
    const auth = request.headers.get("authorization") ?? "";
    const token = auth.startsWith("Bearer ") ? auth.slice(7) : "";
    if (tokens.has(token)) return null;
    return HttpResponse.json(
      token
        ? { error: "invalid_token", error_description: "Token signature verification failed" }
        : {
            name: "AUTHENTICATION_FAILURE",
            message: "Authentication failed due to invalid authentication credentials or a missing Authorization header.",
            debug_id: debugId(),
            details: [],
            links: [],
          },
      { status: 401 },
    );
  }

  const malformed = () =>
    errorBody(400, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", [
      { issue: "MALFORMED_REQUEST_JSON", description: "The request JSON is not well formed." },
    ]);

  function captureOrder(o: MockOrder): Response | null {
    if (o.status === "COMPLETED")
      return unprocessable("ORDER_ALREADY_CAPTURED", "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.");
    if (o.status !== "APPROVED") {
      return unprocessable(
        "ORDER_NOT_APPROVED",
        "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
      );
    }
    if (o.outcome === "INSTRUMENT_DECLINED") {
      return unprocessable(
        "INSTRUMENT_DECLINED",
        "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }
    const now = iso();
    const capture: MockCapture = {
      id: pid(),
      orderId: o.id,
      status: o.outcome,
      reason: o.outcome === "PENDING" ? o.pendingReason : null,
      amount: { currency_code: o.unit.amount.currency_code, value: o.unit.amount.value },
      refundIds: [],
      createTime: now,
      updateTime: now,
    };
    captures.set(capture.id, capture);
    o.captureId = capture.id;
    o.status = "COMPLETED";
    o.updateTime = now;
    return null;
  }

  function mustOrder(orderId: string): MockOrder {
    const o = orders.get(orderId);
    if (!o) throw new Error(`PayPal mock: no order ${orderId}`);
    return o;
  }
  function mustCapture(orderId: string): MockCapture {
    const o = mustOrder(orderId);
    const c = o.captureId ? captures.get(o.captureId) : undefined;
    if (!c) throw new Error(`PayPal mock: order ${orderId} has no capture`);
    return c;
  }

  // --- handlers -----------------------------------------------------------------------------------------------------

  const handlers = [
    http.post(`${PAYPAL_SANDBOX}/v1/oauth2/token`, async ({ request }) => {
      tokenCalls++;
      const body = (await record(request)) as Record<string, string> | string;
      const expected = `Basic ${Buffer.from(`${PAYPAL_CLIENT_ID}:${PAYPAL_CLIENT_SECRET}`).toString("base64")}`;
      if (request.headers.get("authorization") !== expected) {
        return HttpResponse.json({ error: "invalid_client", error_description: "Client Authentication failed" }, { status: 401 });
      }
      if (typeof body !== "object" || body.grant_type !== "client_credentials") {
        return HttpResponse.json({ error: "unsupported_grant_type", error_description: "Grant Type is NULL" }, { status: 400 });
      }
      const token = `A21AA${randomBytes(24).toString("hex")}`;
      tokens.add(token);
      return HttpResponse.json({
        scope: "https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/payments/refund openid",
        access_token: token,
        token_type: "Bearer",
        app_id: "APP-80W284485P519543T",
        expires_in: mockOptions.tokenTtlSeconds ?? 32_400,
        nonce: `${iso()}${randomBytes(8).toString("hex")}`,
      });
    }),

    http.post(`${PAYPAL_SANDBOX}/v2/checkout/orders`, async ({ request }) => {
      const body = (await record(request)) as Record<string, unknown> | symbol | undefined;
      const denied = unauthorized(request);
      if (denied) return denied;
      if (typeof body === "symbol" || !body || typeof body !== "object") return malformed();
      const requestId = request.headers.get("paypal-request-id");
      const replayed = requestId ? idempotency.get(`create:${requestId}`) : undefined;
      if (replayed) {
        const o = mustOrder(replayed);
        return HttpResponse.json(wantsRepresentation(request) ? orderJson(o) : minimalOrder(o), { status: 200 });
      }
      if (body.intent !== "CAPTURE" && body.intent !== "AUTHORIZE") {
        return invalidRequest("INVALID_PARAMETER_VALUE", "/intent", "The value of a field is invalid.");
      }
      const units = body.purchase_units;
      if (!Array.isArray(units) || units.length !== 1) {
        return invalidRequest("MISSING_REQUIRED_PARAMETER", "/purchase_units", "A required field / parameter is missing.");
      }
      const unit = units[0] as Record<string, unknown> & { amount?: Money & { breakdown?: Record<string, Money> } };
      const amountError = moneyError(unit.amount, "/purchase_units/@reference_id=='default'/amount");
      if (amountError) return amountError;
      const amount = unit.amount as Money & { breakdown?: Record<string, Money> };
      if (amount.breakdown) {
        let sum = 0;
        for (const [key, part] of Object.entries(amount.breakdown)) {
          const partError = moneyError(part, `/purchase_units/@reference_id=='default'/amount/breakdown/${key}`);
          if (partError) return partError;
          if (part.currency_code !== amount.currency_code) {
            return unprocessable("CURRENCY_MISMATCH", "Should have same currency code across all the amount objects.");
          }
          sum += (key === "discount" || key === "shipping_discount" ? -1 : 1) * toMinor(part);
        }
        if (sum !== toMinor(amount)) {
          return unprocessable(
            "AMOUNT_MISMATCH",
            "Should equal item_total + tax_total + shipping + handling + insurance - shipping_discount - discount.",
          );
        }
      }
      for (const field of ["reference_id", "invoice_id", "custom_id", "description"]) {
        const value = unit[field];
        if (value !== undefined && (typeof value !== "string" || value.length > (field === "reference_id" ? 256 : 127))) {
          return invalidRequest(
            "INVALID_STRING_MAX_LENGTH",
            `/purchase_units/@reference_id=='default'/${field}`,
            "The value of a field is too long.",
          );
        }
      }
      const experience =
        ((body.payment_source as Record<string, unknown> | undefined)?.paypal as Record<string, unknown> | undefined)?.experience_context ??
        null;
      const now = iso();
      const order: MockOrder = {
        id: pid(),
        intent: body.intent,
        status: experience ? "PAYER_ACTION_REQUIRED" : "CREATED",
        unit: { ...unit, reference_id: typeof unit.reference_id === "string" ? unit.reference_id : "default", amount },
        experience: experience as Record<string, unknown> | null,
        payer: null,
        outcome: "COMPLETED",
        pendingReason: "ECHECK",
        captureId: null,
        createTime: now,
        updateTime: now,
      };
      orders.set(order.id, order);
      if (requestId) idempotency.set(`create:${requestId}`, order.id);
      return HttpResponse.json(wantsRepresentation(request) ? orderJson(order) : minimalOrder(order), { status: 201 });
    }),

    http.get(`${PAYPAL_SANDBOX}/v2/checkout/orders/:id`, async ({ request, params }) => {
      await record(request);
      const denied = unauthorized(request);
      if (denied) return denied;
      const o = orders.get(String(params.id));
      return o ? HttpResponse.json(orderJson(o)) : notFound();
    }),

    http.post(`${PAYPAL_SANDBOX}/v2/checkout/orders/:id/capture`, async ({ request, params }) => {
      const body = await record(request);
      const denied = unauthorized(request);
      if (denied) return denied;
      if (typeof body === "symbol") return malformed();
      const o = orders.get(String(params.id));
      if (!o) return notFound();
      const requestId = request.headers.get("paypal-request-id");
      const key = requestId ? `capture:${o.id}:${requestId}` : null;
      // "PayPal returns the latest status of the previous request that used that same header."
      if (key && idempotency.has(key)) {
        return HttpResponse.json(wantsRepresentation(request) ? orderJson(o) : minimalOrder(o), { status: 200 });
      }
      const refused = captureOrder(o);
      if (refused) return refused;
      if (key) idempotency.set(key, o.id);
      return HttpResponse.json(wantsRepresentation(request) ? orderJson(o) : minimalOrder(o), { status: 201 });
    }),

    http.get(`${PAYPAL_SANDBOX}/v2/payments/captures/:id`, async ({ request, params }) => {
      await record(request);
      const denied = unauthorized(request);
      if (denied) return denied;
      const c = captures.get(String(params.id));
      return c ? HttpResponse.json(captureJson(c, true)) : notFound();
    }),

    http.post(`${PAYPAL_SANDBOX}/v2/payments/captures/:id/refund`, async ({ request, params }) => {
      const body = (await record(request)) as Record<string, unknown> | symbol | undefined;
      const denied = unauthorized(request);
      if (denied) return denied;
      if (typeof body === "symbol") return malformed();
      const c = captures.get(String(params.id));
      if (!c) return notFound();
      const requestId = request.headers.get("paypal-request-id");
      const replayed = requestId ? idempotency.get(`refund:${c.id}:${requestId}`) : undefined;
      if (replayed) return HttpResponse.json(refundJson(refunds.get(replayed) as MockRefund), { status: 200 });
      if (c.status === "PENDING") {
        return unprocessable(
          "PENDING_CAPTURE",
          "Cannot initiate a refund as the capture is pending. Capture is typically pending when the payer has funded the transaction using e-check or bank account.",
        );
      }
      if (c.status === "REFUNDED") return unprocessable("CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded");
      if (c.status === "DECLINED" || c.status === "FAILED") {
        return unprocessable("REFUND_NOT_ALLOWED", "Refund cannot be issued for this capture: it was not completed.");
      }
      const refunded = c.refundIds
        .map((id) => refunds.get(id) as MockRefund)
        .filter((r) => r.status === "COMPLETED" || r.status === "PENDING")
        .reduce((sum, r) => sum + toMinor(r.amount), 0);
      const remaining = toMinor(c.amount) - refunded;
      let amount: Money = { currency_code: c.amount.currency_code, value: toValue(remaining, c.amount.currency_code) };
      if (body?.amount !== undefined) {
        const amountError = moneyError(body.amount, "/amount");
        if (amountError) return amountError;
        amount = body.amount as Money;
        if (amount.currency_code !== c.amount.currency_code) {
          return unprocessable("REFUND_CURRENCY_MISMATCH", "Refund must be in the same currency as the capture.");
        }
        if (toMinor(amount) <= 0) return invalidRequest("INVALID_PARAMETER_VALUE", "/amount/value", "The value of a field is invalid.");
        if (toMinor(amount) > remaining) {
          return unprocessable(
            "REFUND_AMOUNT_EXCEEDED",
            "The refund amount must be less than or equal to the capture amount that has not yet been refunded.",
          );
        }
      }
      const note = body?.note_to_payer;
      if (note !== undefined && (typeof note !== "string" || note.length > 255)) {
        return invalidRequest("INVALID_STRING_MAX_LENGTH", "/note_to_payer", "The value of a field is too long.");
      }
      const now = iso();
      const refund: MockRefund = {
        id: pid(),
        captureId: c.id,
        status: nextRefundStatus,
        amount,
        noteToPayer: typeof note === "string" ? note : undefined,
        invoiceId: typeof body?.invoice_id === "string" ? body.invoice_id : undefined,
        createTime: now,
        updateTime: now,
      };
      nextRefundStatus = "COMPLETED";
      refunds.set(refund.id, refund);
      c.refundIds.push(refund.id);
      if (refund.status === "COMPLETED" || refund.status === "PENDING") {
        c.status = toMinor(amount) === remaining ? "REFUNDED" : "PARTIALLY_REFUNDED";
        c.updateTime = now;
      }
      if (requestId) idempotency.set(`refund:${c.id}:${requestId}`, refund.id);
      return HttpResponse.json(
        wantsRepresentation(request) ? refundJson(refund) : { id: refund.id, status: refund.status, links: refundJson(refund).links },
        {
          status: 201,
        },
      );
    }),

    http.post(`${PAYPAL_SANDBOX}/v1/notifications/verify-webhook-signature`, async ({ request }) => {
      const body = (await record(request)) as Record<string, unknown> | symbol | undefined;
      const denied = unauthorized(request);
      if (denied) return denied;
      if (typeof body === "symbol" || !body || typeof body !== "object") return malformed();
      for (const field of [
        "auth_algo",
        "cert_url",
        "transmission_id",
        "transmission_sig",
        "transmission_time",
        "webhook_id",
        "webhook_event",
      ]) {
        if (body[field] === undefined || body[field] === "") {
          return errorBody(400, "VALIDATION_ERROR", "Invalid request - see details", [
            { field, location: "body", issue: "MISSING_REQUIRED_PARAMETER", description: `${field} is required` },
          ]);
        }
      }
      const expected = signature(
        String(body.transmission_id),
        String(body.transmission_time),
        String(body.webhook_id),
        JSON.stringify(body.webhook_event),
      );
      const ok =
        body.auth_algo === "SHA256withRSA" &&
        typeof body.cert_url === "string" &&
        body.cert_url.startsWith("https://api.sandbox.paypal.com/") &&
        body.webhook_id === PAYPAL_WEBHOOK_ID &&
        body.transmission_sig === expected;
      return HttpResponse.json({ verification_status: ok ? "SUCCESS" : "FAILURE" });
    }),
  ];

  /** The mock's stand-in for PayPal's RSA signature over `transmission_id|transmission_time|webhook_id|crc32(body)`. */
  function signature(transmissionId: string, transmissionTime: string, webhookId: string, body: string): string {
    const crc = crc32(Buffer.from(body, "utf8")) >>> 0;
    return createHmac("sha256", SIGNING_KEY).update(`${transmissionId}|${transmissionTime}|${webhookId}|${crc}`).digest("base64");
  }

  // --- what tests drive ---------------------------------------------------------------------------------------------

  return {
    handlers,
    /** Every request the handlers saw, in order. */
    requests,
    /** How many times the token endpoint was called. */
    tokenCalls: () => tokenCalls,
    /** Requests to a path (exact path, or a predicate). */
    requestsTo(path: string | ((path: string) => boolean), method?: string) {
      return requests.filter((r) => (typeof path === "string" ? r.path === path : path(r.path)) && (!method || r.method === method));
    },
    /** The order as GET /v2/checkout/orders/{id} answers it. */
    order(orderId: string) {
      return orderJson(mustOrder(orderId));
    },
    /** The capture of an order as GET /v2/payments/captures/{id} answers it. */
    capture(orderId: string) {
      return captureJson(mustCapture(orderId), true);
    },
    /** The buyer approves on PayPal's page and returns; `outcome` decides how the later capture ends. */
    approve(orderId: string, opts: { outcome?: CaptureOutcome; pendingReason?: string; payerId?: string; email?: string } = {}) {
      const o = mustOrder(orderId);
      if (o.status !== "CREATED" && o.status !== "PAYER_ACTION_REQUIRED" && o.status !== "APPROVED") {
        throw new Error(`PayPal mock: order ${orderId} is ${o.status}, it cannot be approved`);
      }
      o.status = "APPROVED";
      o.payer = { payerId: opts.payerId ?? "QYR5Z8XDVJNXQ", email: opts.email ?? "buyer@example.com" };
      o.outcome = opts.outcome ?? "COMPLETED";
      o.pendingReason = opts.pendingReason ?? "ECHECK";
      o.updateTime = iso();
      return { token: o.id, PayerID: o.payer.payerId };
    },
    /** The query string PayPal appends to return_url after approval. */
    returnParams(orderId: string) {
      const o = mustOrder(orderId);
      return new URLSearchParams({ token: o.id, ...(o.payer ? { PayerID: o.payer.payerId } : {}) });
    },
    /** Someone else (another server instance, PayPal's JS SDK) captures the approved order. */
    captureElsewhere(orderId: string) {
      const refused = captureOrder(mustOrder(orderId));
      if (refused) throw new Error(`PayPal mock: order ${orderId} cannot be captured`);
    },
    /** The pending eCheck clears: capture COMPLETED (PayPal then sends PAYMENT.CAPTURE.COMPLETED). */
    clearECheck(orderId: string) {
      const c = mustCapture(orderId);
      if (c.status !== "PENDING") throw new Error(`PayPal mock: capture ${c.id} is ${c.status}, not PENDING`);
      c.status = "COMPLETED";
      c.reason = null;
      c.updateTime = iso();
    },
    /** The pending eCheck bounces: capture DECLINED (PayPal then sends PAYMENT.CAPTURE.DENIED). */
    denyECheck(orderId: string) {
      const c = mustCapture(orderId);
      if (c.status !== "PENDING") throw new Error(`PayPal mock: capture ${c.id} is ${c.status}, not PENDING`);
      c.status = "DECLINED";
      c.updateTime = iso();
    },
    voidOrder(orderId: string) {
      const o = mustOrder(orderId);
      o.status = "VOIDED";
      o.updateTime = iso();
    },
    /** The next refund ends in this status (then back to COMPLETED). */
    nextRefund(status: MockRefund["status"]) {
      nextRefundStatus = status;
    },
    /** Every issued access token stops working (API calls answer 401 invalid_token). */
    revokeTokens() {
      tokens.clear();
    },
    /** A webhook event as PayPal would post it for an order's current state. */
    event(eventType: string, orderId: string) {
      const o = mustOrder(orderId);
      const base = { id: `WH-${pid()}-${pid()}`, create_time: iso(), event_version: "1.0", event_type: eventType, links: [] as Link[] };
      if (eventType.startsWith("CHECKOUT.ORDER.")) {
        return {
          ...base,
          resource_type: "checkout-order",
          resource_version: "2.0",
          summary: `An order has been ${eventType.split(".")[2]?.toLowerCase()}`,
          resource: orderJson(o),
        };
      }
      const c = mustCapture(orderId);
      const lastRefund = c.refundIds.length ? refunds.get(c.refundIds[c.refundIds.length - 1]) : undefined;
      if ((eventType === "PAYMENT.CAPTURE.REFUNDED" || eventType === "PAYMENT.CAPTURE.REVERSED") && lastRefund) {
        return {
          ...base,
          resource_type: "refund",
          resource_version: "2.0",
          summary: `A ${c.amount.currency_code} ${lastRefund.amount.value} capture payment was refunded`,
          resource: refundJson(lastRefund),
        };
      }
      return {
        ...base,
        resource_type: "capture",
        resource_version: "2.0",
        summary: `Payment ${eventType.split(".")[2]?.toLowerCase()}`,
        resource: captureJson(c, true),
      };
    },
    /** A delivery of `event` with the transmission headers PayPal adds; verify-webhook-signature answers SUCCESS for it. */
    signedDelivery(event: unknown, opts: { webhookId?: string; transmissionTime?: string } = {}): SignedDelivery {
      const body = JSON.stringify(event);
      const transmissionId = randomUUID();
      const transmissionTime = opts.transmissionTime ?? new Date().toISOString();
      const headers = new Headers({
        "content-type": "application/json",
        "PAYPAL-AUTH-ALGO": "SHA256withRSA",
        "PAYPAL-CERT-URL": PAYPAL_CERT_URL,
        "PAYPAL-TRANSMISSION-ID": transmissionId,
        "PAYPAL-TRANSMISSION-TIME": transmissionTime,
        "PAYPAL-TRANSMISSION-SIG": signature(transmissionId, transmissionTime, opts.webhookId ?? PAYPAL_WEBHOOK_ID, body),
      });
      return { body, headers };
    },
    /** Forget everything (orders, tokens, recorded requests). */
    reset() {
      orders.clear();
      captures.clear();
      refunds.clear();
      idempotency.clear();
      tokens.clear();
      requests.length = 0;
      tokenCalls = 0;
      nextRefundStatus = "COMPLETED";
    },
  };
}

export type PayPalMock = ReturnType<typeof createPayPalMock>;
