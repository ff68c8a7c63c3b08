import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GatewayError, type PaymentGateway, type PaymentRequest, WebhookVerificationFailed } from "../../app/integrations/payments/gateway";
import { createPayPalGateway, fromPayPalValue, toPayPalValue } from "../../app/integrations/payments/paypal.server";
import {
  type CaptureOutcome,
  createPayPalMock,
  PAYPAL_CLIENT_ID,
  PAYPAL_CLIENT_SECRET,
  PAYPAL_SANDBOX,
  PAYPAL_WEBHOOK_ID,
} from "../mocks/paypal";

const mock = createPayPalMock();
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

const T0 = Date.parse("2026-12-01T00:00:00Z");
let clock = T0;
let serial = 0;

function gateway(overrides: Partial<Parameters<typeof createPayPalGateway>[0]> = {}): PaymentGateway {
  clock = T0;
  return createPayPalGateway({
    clientId: PAYPAL_CLIENT_ID,
    clientSecret: PAYPAL_CLIENT_SECRET,
    webhookId: PAYPAL_WEBHOOK_ID,
    testMode: true,
    brandName: "Asset Market",
    now: () => clock,
    ...overrides,
  });
}

function paymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  serial++;
  return {
    paymentId: `M2026120100${String(serial).padStart(2, "0")}`,
    orderName: "Cinematic LUT pack and 2 more",
    amount: 1234,
    vat: 112,
    currency: "USD",
    method: "paypal",
    buyer: { email: "member@example.com", name: "Member" },
    locale: "en",
    returnUrl: "https://market.example/checkout/paypal/return",
    cancelUrl: "https://market.example/checkout/paypal/cancel",
    webhookUrl: "https://market.example/webhooks/paypal",
    ...overrides,
  };
}

/** begin → the buyer approves with `outcome` → confirm. */
async function checkout(gw: PaymentGateway, outcome?: CaptureOutcome, overrides: Partial<PaymentRequest> = {}) {
  const started = await gw.begin(paymentRequest(overrides));
  const orderId = started.gatewayPaymentId;
  mock.approve(orderId, { outcome });
  const payment = await gw.confirm(orderId, mock.returnParams(orderId));
  return { orderId, payment };
}

async function gatewayError(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

async function verificationFailure(promise: Promise<unknown>): Promise<WebhookVerificationFailed> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationFailed);
  return error as WebhookVerificationFailed;
}

const CREATE = "/v2/checkout/orders";
const capturePath = (orderId: string) => `/v2/checkout/orders/${orderId}/capture`;

describe("PayPal amounts", () => {
  it("converts minor units to PayPal decimal strings and back exactly", () => {
    expect(toPayPalValue(1234, "USD")).toBe("12.34");
    expect(toPayPalValue(5, "USD")).toBe("0.05");
    expect(toPayPalValue(100000, "USD")).toBe("1000.00");
    expect(toPayPalValue(1500, "JPY")).toBe("1500");
    expect(fromPayPalValue("12.34", "USD")).toBe(1234);
    expect(fromPayPalValue("0.1", "USD")).toBe(10);
    expect(fromPayPalValue("19.99", "USD")).toBe(1999);
    expect(fromPayPalValue("7", "USD")).toBe(700);
    expect(() => toPayPalValue(12.5, "USD")).toThrow(GatewayError);
  });
});

describe("PayPal OAuth token", () => {
  it("fetches the token with Basic client credentials and reuses it until shortly before expiry", async () => {
    const gw = gateway();
    expect(await gw.getPayment("UNKNOWN0000000001")).toBeNull();
    expect(await gw.getPayment("UNKNOWN0000000002")).toBeNull();
    expect(mock.tokenCalls()).toBe(1);
    const [tokenRequest] = mock.requestsTo("/v1/oauth2/token");
    expect(tokenRequest.headers.authorization).toBe(
      `Basic ${Buffer.from(`${PAYPAL_CLIENT_ID}:${PAYPAL_CLIENT_SECRET}`).toString("base64")}`,
    );
    expect(tokenRequest.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(tokenRequest.body).toEqual({ grant_type: "client_credentials" });
    const apiCalls = mock.requestsTo((p) => p.startsWith("/v2/"));
    expect(apiCalls).toHaveLength(2);
    expect(apiCalls[0].headers.authorization).toMatch(/^Bearer A21AA/);
    expect(apiCalls[1].headers.authorization).toBe(apiCalls[0].headers.authorization);

    // PayPal's tokens last 32400 s: still cached 8 hours later, renewed at the end of their life.
    clock = T0 + 8 * 3600 * 1000;
    await gw.getPayment("UNKNOWN0000000003");
    expect(mock.tokenCalls()).toBe(1);
    clock = T0 + 32_400 * 1000 - 30_000;
    await gw.getPayment("UNKNOWN0000000004");
    expect(mock.tokenCalls()).toBe(2);
    const [, last] = mock.requestsTo((p) => p.startsWith("/v2/")).slice(-2);
    expect(last.headers.authorization).not.toBe(apiCalls[0].headers.authorization);
  });

  it("asks for one token when calls start together", async () => {
    const gw = gateway();
    await Promise.all([gw.getPayment("A0000000000000001"), gw.getPayment("A0000000000000002"), gw.getPayment("A0000000000000003")]);
    expect(mock.tokenCalls()).toBe(1);
  });

  it("fetches a fresh token once when PayPal answers 401, and gives up after a second 401", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    expect(mock.tokenCalls()).toBe(1);
    mock.revokeTokens();
    expect((await gw.getPayment(orderId))?.status).toBe("paid");
    expect(mock.tokenCalls()).toBe(2);

    let attempts = 0;
    server.use(
      http.get(`${PAYPAL_SANDBOX}/v2/checkout/orders/:id`, () => {
        attempts++;
        return HttpResponse.json({ error: "invalid_token", error_description: "Token signature verification failed" }, { status: 401 });
      }),
    );
    const error = await gatewayError(gw.getPayment(orderId));
    expect(error.status).toBe(401);
    expect(error.code).toBe("INVALID_TOKEN");
    expect(attempts).toBe(2);
    expect(mock.tokenCalls()).toBe(3);
  });

  it("reports refused client credentials without leaking the secret or a token", async () => {
    const error = await gatewayError(gateway({ clientSecret: "wrong-secret-value" }).getPayment("A0000000000000001"));
    expect(error.code).toBe("INVALID_CLIENT");
    expect(error.status).toBe(401);
    expect(error.message).not.toContain("wrong-secret-value");
    expect(error.message).not.toContain(Buffer.from(`${PAYPAL_CLIENT_ID}:wrong-secret-value`).toString("base64"));
    expect(mock.requestsTo((p) => p.startsWith("/v2/"))).toHaveLength(0);
  });
});

describe("PayPal network failures", () => {
  it("turns network errors and timeouts into GatewayError NETWORK without secrets in the message", async () => {
    const failing = gateway({
      fetchImpl: async () => {
        throw new TypeError(`fetch failed ${PAYPAL_CLIENT_SECRET}`);
      },
    });
    const network = await gatewayError(failing.getPayment("A0000000000000001"));
    expect(network.code).toBe("NETWORK");
    expect(network.message).not.toContain(PAYPAL_CLIENT_SECRET);

    server.use(
      http.get(`${PAYPAL_SANDBOX}/v2/checkout/orders/:id`, async () => {
        await delay(500);
        return HttpResponse.json({});
      }),
    );
    const slow = gateway({ timeoutMs: 50 });
    const timeout = await gatewayError(slow.getPayment("A0000000000000001"));
    expect(timeout.code).toBe("NETWORK");
    expect(timeout.message).toContain("timeout");
    expect(timeout.message).not.toMatch(/A21AA|Bearer/);
  });

  it("uses the live host outside test mode", async () => {
    const urls: string[] = [];
    const live = createPayPalGateway({
      clientId: "id",
      clientSecret: "secret",
      webhookId: "wh",
      testMode: false,
      fetchImpl: async (input) => {
        urls.push(String(input));
        throw new TypeError("offline");
      },
    });
    expect(live.testMode).toBe(false);
    expect((await gatewayError(live.getPayment("A0000000000000001"))).code).toBe("NETWORK");
    expect(urls).toEqual(["https://api-m.paypal.com/v1/oauth2/token"]);
  });
});

describe("PayPal begin (create order)", () => {
  it("creates a CAPTURE order with decimal amounts, the VAT breakdown, idempotency and the payer-action redirect", async () => {
    const gw = gateway();
    expect(gw.name).toBe("paypal");
    expect(gw.methods).toEqual(["paypal"]);
    expect(gw.testMode).toBe(true);
    const request = paymentRequest();
    const started = await gw.begin(request);
    expect(started.kind).toBe("redirect");
    const orderId = started.gatewayPaymentId;
    expect(orderId).toMatch(/^[A-Z0-9]{17}$/);
    expect(started).toEqual({
      kind: "redirect",
      gatewayPaymentId: orderId,
      url: `https://www.sandbox.paypal.com/checkoutnow?token=${orderId}`,
    });

    const [create] = mock.requestsTo(CREATE, "POST");
    expect(create.headers["paypal-request-id"]).toBe(`${request.paymentId}-create`);
    expect(create.headers.prefer).toBe("return=representation");
    expect(create.headers["content-type"]).toBe("application/json");
    expect(create.body).toEqual({
      intent: "CAPTURE",
      purchase_units: [
        {
          reference_id: request.paymentId,
          invoice_id: request.paymentId,
          custom_id: request.paymentId,
          description: "Cinematic LUT pack and 2 more",
          amount: {
            currency_code: "USD",
            value: "12.34",
            breakdown: { item_total: { currency_code: "USD", value: "11.22" }, tax_total: { currency_code: "USD", value: "1.12" } },
          },
        },
      ],
      payment_source: {
        paypal: {
          experience_context: {
            return_url: "https://market.example/checkout/paypal/return",
            cancel_url: "https://market.example/checkout/paypal/cancel",
            user_action: "PAY_NOW",
            brand_name: "Asset Market",
            locale: "en-US",
            shipping_preference: "NO_SHIPPING",
          },
        },
      },
    });
    expect(mock.order(orderId).status).toBe("PAYER_ACTION_REQUIRED");

    const payment = await gw.getPayment(orderId);
    expect(payment).toEqual({
      gatewayPaymentId: orderId,
      paymentId: request.paymentId,
      status: "ready",
      currency: "USD",
      amount: { total: 1234, paid: 0, cancelled: 0 },
      method: "paypal",
    });
  });

  it("answers the same order when the store repeats begin for the same payment", async () => {
    const gw = gateway();
    const request = paymentRequest();
    const first = await gw.begin(request);
    const again = await gw.begin(request);
    expect(again).toEqual(first);
  });

  it("asks PayPal's pages in Korean for the Korean storefront", async () => {
    await gateway().begin(paymentRequest({ locale: "ko", amount: 5, vat: 0 }));
    const [create] = mock.requestsTo(CREATE, "POST");
    const body = create.body as {
      purchase_units: { amount: unknown }[];
      payment_source: { paypal: { experience_context: { locale: string } } };
    };
    expect(body.payment_source.paypal.experience_context.locale).toBe("ko-KR");
    expect(body.purchase_units[0].amount).toEqual({
      currency_code: "USD",
      value: "0.05",
      breakdown: { item_total: { currency_code: "USD", value: "0.05" }, tax_total: { currency_code: "USD", value: "0.00" } },
    });
  });

  it("follows an approve link when PayPal answers without payer-action", async () => {
    server.use(
      http.post(`${PAYPAL_SANDBOX}/v2/checkout/orders`, () =>
        HttpResponse.json(
          {
            id: "5O190127TN364715T",
            status: "CREATED",
            links: [
              { href: `${PAYPAL_SANDBOX}/v2/checkout/orders/5O190127TN364715T`, rel: "self", method: "GET" },
              { href: "https://www.sandbox.paypal.com/checkoutnow?token=5O190127TN364715T", rel: "approve", method: "GET" },
            ],
          },
          { status: 201 },
        ),
      ),
    );
    expect(await gateway().begin(paymentRequest())).toEqual({
      kind: "redirect",
      gatewayPaymentId: "5O190127TN364715T",
      url: "https://www.sandbox.paypal.com/checkoutnow?token=5O190127TN364715T",
    });
  });

  it("refuses KRW and methods other than PayPal before calling PayPal", async () => {
    const gw = gateway();
    const krw = await gatewayError(gw.begin(paymentRequest({ currency: "KRW", amount: 11000, vat: 1000 })));
    expect(krw.code).toBe("CURRENCY_NOT_SUPPORTED");
    const card = await gatewayError(gw.begin(paymentRequest({ method: "card" })));
    expect(card.code).toBe("METHOD_NOT_AVAILABLE");
    const vatAboveAmount = await gatewayError(gw.begin(paymentRequest({ amount: 100, vat: 101 })));
    expect(vatAboveAmount.code).toBe("INVALID_AMOUNT");
    expect(mock.requests).toHaveLength(0);
  });

  it("passes PayPal's validation errors on as GatewayError with the issue", async () => {
    const error = await gatewayError(gateway().begin(paymentRequest({ paymentId: "X".repeat(130) })));
    expect(error.code).toBe("INVALID_STRING_MAX_LENGTH");
    expect(error.status).toBe(400);
  });
});

describe("PayPal confirm (capture) and getPayment", () => {
  it("captures an approved order: COMPLETED → paid", async () => {
    const gw = gateway();
    const { orderId, payment } = await checkout(gw, "COMPLETED");
    expect(payment).toMatchObject({
      gatewayPaymentId: orderId,
      status: "paid",
      currency: "USD",
      amount: { total: 1234, paid: 1234, cancelled: 0 },
      method: "paypal",
    });
    expect(payment.paymentId).toMatch(/^M20261201/);
    expect(payment.paidAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const [capture] = mock.requestsTo(capturePath(orderId), "POST");
    expect(capture.headers["paypal-request-id"]).toBe(`${orderId}-capture`);
    expect(capture.headers.prefer).toBe("return=representation");
    expect(await gw.getPayment(orderId)).toEqual(payment);
  });

  it("keeps an eCheck pending (reason ECHECK) until PayPal clears it", async () => {
    const gw = gateway();
    const { orderId, payment } = await checkout(gw, "PENDING");
    expect(payment.status).toBe("pending");
    expect(payment.pendingReason).toBe("ECHECK");
    expect(payment.amount).toEqual({ total: 1234, paid: 0, cancelled: 0 });
    expect((await gw.getPayment(orderId))?.status).toBe("pending");

    mock.clearECheck(orderId);
    const cleared = await gw.getPayment(orderId);
    expect(cleared?.status).toBe("paid");
    expect(cleared?.pendingReason).toBeUndefined();
    expect(cleared?.amount).toEqual({ total: 1234, paid: 1234, cancelled: 0 });
    // The payer reloads the return page: the replayed capture answers the latest state, not a second capture.
    expect((await gw.confirm(orderId, mock.returnParams(orderId))).status).toBe("paid");
  });

  it("reports a bounced eCheck as failed", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw, "PENDING");
    mock.denyECheck(orderId);
    expect(await gw.getPayment(orderId)).toMatchObject({ status: "failed", amount: { paid: 0 } });
  });

  it("maps a DECLINED capture in a COMPLETED order to failed", async () => {
    const { payment } = await checkout(gateway(), "DECLINED");
    expect(payment.status).toBe("failed");
    expect(payment.failure?.code).toBe("DECLINED");
    expect(payment.amount.paid).toBe(0);
  });

  it("maps a FAILED capture to failed", async () => {
    expect((await checkout(gateway(), "FAILED")).payment.status).toBe("failed");
  });

  it("maps 422 INSTRUMENT_DECLINED to failed with PayPal's reason", async () => {
    const { payment } = await checkout(gateway(), "INSTRUMENT_DECLINED");
    expect(payment.status).toBe("failed");
    expect(payment.failure?.code).toBe("INSTRUMENT_DECLINED");
    expect(payment.failure?.reason).toMatch(/declined by the processor or bank/);
  });

  it("answers ready when the buyer did not approve, and captures once they do", async () => {
    const gw = gateway();
    const { gatewayPaymentId: orderId } = await gw.begin(paymentRequest());
    const abandoned = await gw.confirm(orderId, new URLSearchParams({ token: orderId }));
    expect(abandoned.status).toBe("ready");
    expect(abandoned.amount).toEqual({ total: 1234, paid: 0, cancelled: 0 });
    mock.approve(orderId);
    expect((await gw.confirm(orderId, mock.returnParams(orderId))).status).toBe("paid");
  });

  it("captures once when confirm is repeated (PayPal-Request-Id replay)", async () => {
    const gw = gateway();
    const { orderId, payment } = await checkout(gw);
    const again = await gw.confirm(orderId, mock.returnParams(orderId));
    expect(again).toEqual(payment);
    const captures = mock.requestsTo(capturePath(orderId), "POST");
    expect(captures).toHaveLength(2);
    expect(captures[1].headers["paypal-request-id"]).toBe(captures[0].headers["paypal-request-id"]);
    expect(mock.order(orderId).purchase_units[0].payments?.captures).toHaveLength(1);
  });

  it("reads the order when it was already captured elsewhere (422 ORDER_ALREADY_CAPTURED)", async () => {
    const gw = gateway();
    const { gatewayPaymentId: orderId } = await gw.begin(paymentRequest());
    mock.approve(orderId);
    mock.captureElsewhere(orderId);
    const payment = await gw.confirm(orderId, mock.returnParams(orderId));
    expect(payment.status).toBe("paid");
    expect(payment.amount.paid).toBe(1234);
    expect(mock.requests.slice(-2).map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST ${capturePath(orderId)}`,
      `GET /v2/checkout/orders/${orderId}`,
    ]);
  });

  it("answers null for an order PayPal does not know, and confirm says so", async () => {
    const gw = gateway();
    expect(await gw.getPayment("7XX00000000000000")).toBeNull();
    const error = await gatewayError(gw.confirm("7XX00000000000000", new URLSearchParams({ token: "7XX00000000000000" })));
    expect(error.code).toBe("INVALID_RESOURCE_ID");
    expect(error.status).toBe(404);
  });

  it("maps a voided order to failed", async () => {
    const gw = gateway();
    const { gatewayPaymentId: orderId } = await gw.begin(paymentRequest());
    mock.voidOrder(orderId);
    expect(await gw.getPayment(orderId)).toMatchObject({ status: "failed", failure: { code: "VOIDED" } });
  });
});

describe("PayPal cancel (refund the capture)", () => {
  it("refunds in full", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    const refund = await gw.cancel(orderId, { reason: "Buyer asked", requestId: "refund-key-1" });
    expect(refund).toEqual({ cancellationId: expect.stringMatching(/^[A-Z0-9]{17}$/), status: "succeeded", amount: 1234 });
    const captureId = mock.capture(orderId).id;
    const [call] = mock.requestsTo(`/v2/payments/captures/${captureId}/refund`, "POST");
    expect(call.headers["paypal-request-id"]).toBe("refund-key-1");
    expect(call.body).toMatchObject({ note_to_payer: "Buyer asked" });
    expect(call.body).not.toHaveProperty("amount");
    expect(await gw.getPayment(orderId)).toMatchObject({ status: "cancelled", amount: { total: 1234, paid: 1234, cancelled: 1234 } });
    const again = await gatewayError(gw.cancel(orderId, { reason: "Again" }));
    expect(again.code).toBe("CAPTURE_FULLY_REFUNDED");
    expect(again.status).toBe(422);
  });

  it("refunds part, refuses more than what is left, then refunds the rest", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    const partial = await gw.cancel(orderId, { reason: "One item", amount: 500 });
    expect(partial).toMatchObject({ status: "succeeded", amount: 500 });
    const [call] = mock.requestsTo((p) => p.endsWith("/refund"), "POST");
    expect(call.body).toMatchObject({ amount: { currency_code: "USD", value: "5.00" } });
    expect(call.headers["paypal-request-id"]).toBeTruthy();
    expect(await gw.getPayment(orderId)).toMatchObject({
      status: "partial_cancelled",
      amount: { total: 1234, paid: 1234, cancelled: 500 },
    });

    const exceeded = await gatewayError(gw.cancel(orderId, { reason: "Too much", amount: 735 }));
    expect(exceeded.code).toBe("REFUND_AMOUNT_EXCEEDED");
    expect(exceeded.status).toBe(422);

    // A second partial refund of the same amount is a different refund, not a replay of the first.
    const second = await gw.cancel(orderId, { reason: "Another item", amount: 500, currentCancellableAmount: 734 });
    expect(second.cancellationId).not.toBe(partial.cancellationId);
    const rest = await gw.cancel(orderId, { reason: "The rest", currentCancellableAmount: 234 });
    expect(rest).toMatchObject({ status: "succeeded", amount: 234 });
    expect(await gw.getPayment(orderId)).toMatchObject({ status: "cancelled", amount: { cancelled: 1234 } });
  });

  it("replays a refund retried with the same request id", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    const first = await gw.cancel(orderId, { reason: "Retry", amount: 300, requestId: "cancel-42" });
    const retried = await gw.cancel(orderId, { reason: "Retry", amount: 300, requestId: "cancel-42" });
    expect(retried).toEqual(first);
    expect(await gw.getPayment(orderId)).toMatchObject({ amount: { cancelled: 300 } });
  });

  it("refuses to refund an eCheck that has not cleared (PENDING_CAPTURE)", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw, "PENDING");
    const error = await gatewayError(gw.cancel(orderId, { reason: "Changed my mind" }));
    expect(error.code).toBe("PENDING_CAPTURE");
    expect(error.status).toBe(422);
    mock.clearECheck(orderId);
    expect((await gw.cancel(orderId, { reason: "Changed my mind" })).status).toBe("succeeded");
  });

  it("checks the cancellable balance the store expects before refunding", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    const error = await gatewayError(gw.cancel(orderId, { reason: "Stale", amount: 100, currentCancellableAmount: 1000 }));
    expect(error.code).toBe("CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN");
    expect(mock.requestsTo((p) => p.endsWith("/refund"))).toHaveLength(0);
  });

  it("maps refund statuses and refuses orders without a capture", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    mock.nextRefund("PENDING");
    expect((await gw.cancel(orderId, { reason: "Pending refund", amount: 100 })).status).toBe("requested");
    mock.nextRefund("FAILED");
    expect((await gw.cancel(orderId, { reason: "Failed refund", amount: 100 })).status).toBe("failed");
    expect(await gw.getPayment(orderId)).toMatchObject({ status: "partial_cancelled", amount: { cancelled: 100 } });

    const { gatewayPaymentId: unpaid } = await gw.begin(paymentRequest());
    expect((await gatewayError(gw.cancel(unpaid, { reason: "Not paid" }))).code).toBe("PAYMENT_NOT_PAID");
    expect((await gatewayError(gw.cancel("7XX00000000000000", { reason: "Unknown" }))).code).toBe("RESOURCE_NOT_FOUND");
  });

  it("has no virtual accounts to close", async () => {
    expect((await gatewayError(gateway().closeVirtualAccount("A0000000000000001"))).code).toBe("NOT_SUPPORTED");
  });
});

describe("PayPal webhooks", () => {
  it("accepts a verified capture event and names the order", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw, "PENDING");
    mock.clearECheck(orderId);
    const event = mock.event("PAYMENT.CAPTURE.COMPLETED", orderId);
    const delivery = mock.signedDelivery(event);
    expect(await gw.verifyWebhook(delivery.body, delivery.headers)).toEqual({
      eventId: event.id,
      type: "PAYMENT.CAPTURE.COMPLETED",
      gatewayPaymentId: orderId,
    });
    const [verify] = mock.requestsTo("/v1/notifications/verify-webhook-signature", "POST");
    expect(verify.body).toEqual({
      auth_algo: "SHA256withRSA",
      cert_url: delivery.headers.get("paypal-cert-url"),
      transmission_id: delivery.headers.get("paypal-transmission-id"),
      transmission_sig: delivery.headers.get("paypal-transmission-sig"),
      transmission_time: delivery.headers.get("paypal-transmission-time"),
      webhook_id: PAYPAL_WEBHOOK_ID,
      webhook_event: event,
    });
    expect(verify.headers.authorization).toMatch(/^Bearer /);
  });

  it("names the order for order events and for refund events (through the refunded capture)", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    const approved = mock.signedDelivery(mock.event("CHECKOUT.ORDER.APPROVED", orderId));
    expect((await gw.verifyWebhook(approved.body, approved.headers)).gatewayPaymentId).toBe(orderId);

    await gw.cancel(orderId, { reason: "Refund", amount: 200 });
    const refundEvent = mock.event("PAYMENT.CAPTURE.REFUNDED", orderId);
    expect(refundEvent.resource_type).toBe("refund");
    const refunded = mock.signedDelivery(refundEvent);
    expect(await gw.verifyWebhook(refunded.body, refunded.headers)).toEqual({
      eventId: refundEvent.id,
      type: "PAYMENT.CAPTURE.REFUNDED",
      gatewayPaymentId: orderId,
    });

    const other = mock.signedDelivery({
      id: "WH-OTHER-1",
      event_type: "CUSTOMER.DISPUTE.CREATED",
      resource_type: "dispute",
      resource: { dispute_id: "PP-D-1" },
    });
    expect(await gw.verifyWebhook(other.body, other.headers)).toEqual({
      eventId: "WH-OTHER-1",
      type: "CUSTOMER.DISPUTE.CREATED",
      gatewayPaymentId: null,
    });
  });

  it("rejects a tampered body", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    const delivery = mock.signedDelivery(mock.event("PAYMENT.CAPTURE.COMPLETED", orderId));
    const tampered = delivery.body.replace('"value":"12.34"', '"value":"1234.00"');
    expect(tampered).not.toBe(delivery.body);
    await verificationFailure(gw.verifyWebhook(tampered, delivery.headers));
    // The untouched delivery still verifies: the failure was the tampering.
    expect((await gw.verifyWebhook(delivery.body, delivery.headers)).gatewayPaymentId).toBe(orderId);
  });

  it("rejects deliveries signed for another webhook, or with a forged signature", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    const event = mock.event("PAYMENT.CAPTURE.COMPLETED", orderId);
    const otherWebhook = mock.signedDelivery(event, { webhookId: "OTHERWEBHOOK00001" });
    await verificationFailure(gw.verifyWebhook(otherWebhook.body, otherWebhook.headers));
    const forged = mock.signedDelivery(event);
    forged.headers.set("PAYPAL-TRANSMISSION-SIG", Buffer.from("forged").toString("base64"));
    await verificationFailure(gw.verifyWebhook(forged.body, forged.headers));
    const wrongConfig = gateway({ webhookId: "OTHERWEBHOOK00001" });
    const good = mock.signedDelivery(event);
    await verificationFailure(wrongConfig.verifyWebhook(good.body, good.headers));
  });

  it("rejects missing headers and unparsable bodies without asking PayPal", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    const before = mock.requests.length;
    const event = mock.event("PAYMENT.CAPTURE.COMPLETED", orderId);
    for (const header of [
      "PAYPAL-AUTH-ALGO",
      "PAYPAL-CERT-URL",
      "PAYPAL-TRANSMISSION-ID",
      "PAYPAL-TRANSMISSION-SIG",
      "PAYPAL-TRANSMISSION-TIME",
    ]) {
      const delivery = mock.signedDelivery(event);
      delivery.headers.delete(header);
      const error = await verificationFailure(gw.verifyWebhook(delivery.body, delivery.headers));
      expect(error.message).toContain(header);
    }
    const delivery = mock.signedDelivery(event);
    await verificationFailure(gw.verifyWebhook(`${delivery.body.slice(0, -1)}`, delivery.headers));
    await verificationFailure(gw.verifyWebhook("[]", delivery.headers));
    expect(mock.requests.length).toBe(before);
  });

  it("refuses a forged delivery on its headers before calling PayPal", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    const event = mock.event("PAYMENT.CAPTURE.COMPLETED", orderId);
    const forgeries: [string, (headers: Headers) => void, string?][] = [
      ["an old transmission", (h) => h.set("PAYPAL-TRANSMISSION-TIME", new Date(Date.now() - 20 * 60_000).toISOString())],
      ["a transmission from the future", (h) => h.set("PAYPAL-TRANSMISSION-TIME", new Date(Date.now() + 20 * 60_000).toISOString())],
      ["a time that is no time", (h) => h.set("PAYPAL-TRANSMISSION-TIME", "yesterday")],
      ["a certificate on another host", (h) => h.set("PAYPAL-CERT-URL", "https://evil.test/v1/notifications/certs/CERT-1")],
      ["a look-alike host", (h) => h.set("PAYPAL-CERT-URL", "https://api.sandbox.paypal.com.evil.test/v1/notifications/certs/CERT-1")],
      ["credentials before the host", (h) => h.set("PAYPAL-CERT-URL", "https://api.sandbox.paypal.com@evil.test/v1/notifications/certs/C")],
      ["plain http", (h) => h.set("PAYPAL-CERT-URL", "http://api.sandbox.paypal.com/v1/notifications/certs/CERT-1")],
      ["another port", (h) => h.set("PAYPAL-CERT-URL", "https://api.sandbox.paypal.com:8443/v1/notifications/certs/CERT-1")],
      ["another path", (h) => h.set("PAYPAL-CERT-URL", "https://api.sandbox.paypal.com/v1/oauth2/token")],
      ["the live host in sandbox mode", (h) => h.set("PAYPAL-CERT-URL", "https://api-m.paypal.com/v1/notifications/certs/CERT-1")],
      ["another algorithm", (h) => h.set("PAYPAL-AUTH-ALGO", "none")],
      ["a signature that is not base64", (h) => h.set("PAYPAL-TRANSMISSION-SIG", "<not base64>")],
      ["an overlong transmission id", (h) => h.set("PAYPAL-TRANSMISSION-ID", "a".repeat(70_000))],
      ["a body past 256 KiB", () => {}, `{"id":"WH-1","event_type":"X","pad":"${"x".repeat(300 * 1024)}"}`],
    ];
    const before = mock.requests.length;
    for (const [name, forge, body] of forgeries) {
      const delivery = mock.signedDelivery(event);
      forge(delivery.headers);
      const error = await verificationFailure(gw.verifyWebhook(body ?? delivery.body, delivery.headers));
      expect(error.message, name).toContain("refused before verification");
    }
    // Nothing reached PayPal, not even for a token.
    expect(mock.requests.length).toBe(before);
    // A delivery a few minutes old, with PayPal's live certificate host outside test mode, passes these checks.
    const recent = mock.signedDelivery(event, { transmissionTime: new Date(Date.now() - 5 * 60_000).toISOString() });
    expect((await gw.verifyWebhook(recent.body, recent.headers)).eventId).toBe(event.id);
    const live = mock.signedDelivery(event);
    live.headers.set("PAYPAL-CERT-URL", "https://api-m.paypal.com/v1/notifications/certs/CERT-1");
    const liveGateway = gateway({ testMode: false, baseUrl: PAYPAL_SANDBOX });
    const refused = await verificationFailure(liveGateway.verifyWebhook(live.body, live.headers));
    // Past the cheap checks: the mock (standing in for PayPal) refuses a certificate that is not its sandbox's.
    expect(refused.message).not.toContain("refused before verification");
  });

  it("treats PayPal being unreachable as a gateway error, not a bad signature", async () => {
    const gw = gateway();
    const { orderId } = await checkout(gw);
    const delivery = mock.signedDelivery(mock.event("PAYMENT.CAPTURE.COMPLETED", orderId));
    server.use(
      http.post(`${PAYPAL_SANDBOX}/v1/notifications/verify-webhook-signature`, () =>
        HttpResponse.json(
          { name: "INTERNAL_SERVICE_ERROR", message: "An internal service error has occurred.", debug_id: "abc", details: [] },
          { status: 500 },
        ),
      ),
    );
    const error = await gatewayError(gw.verifyWebhook(delivery.body, delivery.headers));
    expect(error.code).toBe("INTERNAL_SERVICE_ERROR");
  });
});
