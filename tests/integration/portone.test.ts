import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GatewayError, type PaymentRequest, WebhookVerificationFailed } from "../../app/integrations/payments/gateway";
import { createPortOneGateway, type PortOneOptions } from "../../app/integrations/payments/portone.server";
import {
  PORTONE_API_SECRET,
  PORTONE_BASE_URL,
  PORTONE_CHANNEL_KEYS,
  PORTONE_STORE_ID,
  PORTONE_WEBHOOK_SECRET,
  portOneWebhookBody,
  portone,
  portoneHandlers,
  signPortOneWebhook,
} from "../mocks/portone";

const server = setupServer(...portoneHandlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
// The stand-in's record is one per process: test files share their modules (vitest.config.ts), so start clean.
beforeEach(() => portone.reset());
afterEach(() => {
  server.resetHandlers();
  portone.reset();
});
afterAll(() => server.close());

function gateway(overrides: Partial<PortOneOptions> = {}) {
  return createPortOneGateway({
    apiSecret: PORTONE_API_SECRET,
    webhookSecret: PORTONE_WEBHOOK_SECRET,
    storeId: PORTONE_STORE_ID,
    channelKeys: PORTONE_CHANNEL_KEYS,
    testMode: true,
    ...overrides,
  });
}

/** Resolves to the error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

async function gatewayError(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe("PortOne getPayment (GET /payments/{paymentId}, services.md §1.3)", () => {
  it("reads a paid card payment, authenticating with the API secret and naming the store", async () => {
    portone.setPayment({ id: "order-0001", amount: 11000, vat: 1000, method: "card", status: "PAID" });
    const payment = await gateway().getPayment("order-0001");
    expect(payment).toEqual({
      gatewayPaymentId: "order-0001",
      paymentId: "order-0001",
      status: "paid",
      currency: "KRW",
      amount: { total: 11000, paid: 11000, cancelled: 0 },
      method: "card",
      paidAt: portone.payment("order-0001")?.paidAt,
    });
    expect(payment?.paidAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const [req] = portone.requests;
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/payments/order-0001");
    expect(req.authorization).toBe(`PortOne ${PORTONE_API_SECRET}`);
    expect(req.search.get("storeId")).toBe(PORTONE_STORE_ID);
  });

  it("reads an issued virtual account with its bank, number, holder and deadline", async () => {
    portone.setPayment({ id: "order-va", amount: 33000, method: "vbank" });
    portone.issueVirtualAccount("order-va", {
      bank: "KOOKMIN",
      accountNumber: "12345678901234",
      remitteeName: "(주)에셋마켓",
      expiredAt: "2026-01-02T14:59:59Z",
    });
    expect(await gateway().getPayment("order-va")).toEqual({
      gatewayPaymentId: "order-va",
      paymentId: "order-va",
      status: "vbank_issued",
      currency: "KRW",
      amount: { total: 33000, paid: 0, cancelled: 0 },
      method: "vbank",
      vbank: { bank: "KOOKMIN", accountNumber: "12345678901234", holder: "(주)에셋마켓", dueAt: "2026-01-02T14:59:59Z" },
    });
  });

  it("reads a failed payment with the reason and the PG's code", async () => {
    portone.setPayment({ id: "order-failed", amount: 5500 });
    portone.markFailed("order-failed", { reason: "카드 한도 초과", pgCode: "V810", pgMessage: "한도초과" });
    const payment = await gateway().getPayment("order-failed");
    expect(payment?.status).toBe("failed");
    expect(payment?.failure).toEqual({ reason: "카드 한도 초과", code: "V810" });
    expect(payment?.paidAt).toBeUndefined();
  });

  it("reads a partially cancelled payment with paid and cancelled amounts", async () => {
    portone.setPayment({ id: "order-partial", amount: 11000, method: "kakaopay", status: "PARTIAL_CANCELLED", cancelled: 3000 });
    const payment = await gateway().getPayment("order-partial");
    expect(payment).toMatchObject({
      status: "partial_cancelled",
      method: "kakaopay",
      amount: { total: 11000, paid: 11000, cancelled: 3000 },
    });
  });

  it.each([
    ["READY", "ready"],
    ["PAY_PENDING", "pending"],
    ["PENDING", "pending"],
    ["VIRTUAL_ACCOUNT_ISSUED", "vbank_issued"],
    ["PAID", "paid"],
    ["FAILED", "failed"],
    ["PARTIAL_CANCELLED", "partial_cancelled"],
    ["CANCELLED", "cancelled"],
  ])("maps status %s to %s", async (portOneStatus, expected) => {
    const body = portone.setPayment({ id: "order-status", amount: 1000 });
    portone.putRaw({ ...body, status: portOneStatus });
    expect((await gateway().getPayment("order-status"))?.status).toBe(expected);
  });

  it.each([
    ["card", "card"],
    ["phone", "phone"],
    ["kakaopay", "kakaopay"],
    ["vbank", "vbank"],
  ] as const)("maps the %s payment method", async (method, expected) => {
    portone.setPayment({ id: `order-${method}`, amount: 2200, method, status: "PAID" });
    expect((await gateway().getPayment(`order-${method}`))?.method).toBe(expected);
  });

  it("URL-encodes the payment id", async () => {
    const id = "order/2026 #7?x=1&y";
    portone.setPayment({ id, amount: 1000, status: "PAID" });
    expect((await gateway().getPayment(id))?.gatewayPaymentId).toBe(id);
    expect(portone.requests[0].path).toBe(`/payments/${id}`);
  });

  it("answers null for a payment PortOne does not know (404 PAYMENT_NOT_FOUND)", async () => {
    expect(await gateway().getPayment("order-unknown")).toBeNull();
  });

  it("throws UNAUTHORIZED for a wrong secret, without the secret in the message", async () => {
    portone.setPayment({ id: "order-0001", amount: 1000, status: "PAID" });
    const secret = "wrong-secret-do-not-leak";
    const error = await gatewayError(gateway({ apiSecret: secret }).getPayment("order-0001"));
    expect(error.code).toBe("UNAUTHORIZED");
    expect(error.status).toBe(401);
    expect(error.message).not.toContain(secret);
  });

  it("rejects an unknown payment status as an invalid answer", async () => {
    const body = portone.setPayment({ id: "order-odd", amount: 1000 });
    portone.putRaw({ ...body, status: "SOMETHING_NEW" });
    expect((await gatewayError(gateway().getPayment("order-odd"))).code).toBe("INVALID_RESPONSE");
  });

  it("turns network failures and timeouts into NETWORK errors that do not leak the secret", async () => {
    const failing = gateway({
      fetchImpl: async () => Promise.reject(new TypeError(`fetch failed for PortOne ${PORTONE_API_SECRET}`)),
    });
    const network = await gatewayError(failing.getPayment("order-0001"));
    expect(network.code).toBe("NETWORK");
    expect(network.message).not.toContain(PORTONE_API_SECRET);

    server.use(
      http.get(`${PORTONE_BASE_URL}/payments/:paymentId`, async () => {
        await delay(1000);
        return HttpResponse.json({});
      }),
    );
    const slow = await gatewayError(gateway({ timeoutMs: 50 }).getPayment("order-0001"));
    expect(slow.code).toBe("NETWORK");
    expect(slow.message).toContain("50 ms");
  });

  it("maps a non-JSON error answer to HTTP_<status>", async () => {
    server.use(http.get(`${PORTONE_BASE_URL}/payments/:paymentId`, () => new HttpResponse("<html>Bad gateway</html>", { status: 503 })));
    const error = await gatewayError(gateway().getPayment("order-0001"));
    expect([error.code, error.status]).toEqual(["HTTP_503", 503]);
  });

  it("talks to an injected base URL", async () => {
    server.use(
      http.get("http://portone.test/payments/:paymentId", ({ params }) =>
        HttpResponse.json({ status: "PAID", id: params.paymentId, currency: "USD", amount: { total: 1999, paid: 1999, cancelled: 0 } }),
      ),
    );
    const payment = await gateway({ baseUrl: "http://portone.test/" }).getPayment("order-usd");
    expect(payment).toMatchObject({ status: "paid", currency: "USD", amount: { total: 1999, paid: 1999, cancelled: 0 } });
  });
});

describe("PortOne begin (browser SDK requestPayment parameters, §1.2)", () => {
  const request = (over: Partial<PaymentRequest> = {}): PaymentRequest => ({
    paymentId: "order-20260101-0001",
    orderName: "LUT pack",
    amount: 11000,
    vat: 1000,
    currency: "KRW",
    method: "card",
    buyer: { email: "buyer@example.com" },
    locale: "ko",
    returnUrl: "https://market.example/checkout/portone/return",
    cancelUrl: "https://market.example/cart",
    webhookUrl: "https://market.example/webhooks/portone",
    ...over,
  });
  const common = {
    storeId: PORTONE_STORE_ID,
    paymentId: "order-20260101-0001",
    orderName: "LUT pack",
    totalAmount: 11000,
    currency: "CURRENCY_KRW",
    redirectUrl: "https://market.example/checkout/portone/return",
    noticeUrls: ["https://market.example/webhooks/portone"],
    customer: { email: "buyer@example.com" },
    vatAmount: 1000,
    locale: "KO_KR",
  };

  it("offers exactly the methods with a channel key, and says whether it is in test mode", () => {
    expect(gateway().methods).toEqual(["card", "phone", "kakaopay", "vbank"]);
    const partial = gateway({ channelKeys: { card: "ck-card", vbank: "ck-vbank", phone: "" }, testMode: false });
    expect(partial.methods).toEqual(["card", "vbank"]);
    expect(partial.testMode).toBe(false);
    expect(partial.name).toBe("portone");
  });

  it("card: payMethod CARD with the card channel, without calling PortOne", async () => {
    expect(await gateway().begin(request())).toEqual({
      kind: "browser-sdk",
      gatewayPaymentId: "order-20260101-0001",
      sdk: { ...common, channelKey: PORTONE_CHANNEL_KEYS.card, payMethod: "CARD" },
    });
    expect(portone.requests).toHaveLength(0);
  });

  it("phone: payMethod MOBILE with productType DIGITAL", async () => {
    const { sdk } = (await gateway().begin(request({ method: "phone" }))) as { sdk: Record<string, unknown> };
    expect(sdk).toEqual({ ...common, channelKey: PORTONE_CHANNEL_KEYS.phone, payMethod: "MOBILE", productType: "PRODUCT_TYPE_DIGITAL" });
  });

  it("kakaopay: payMethod EASY_PAY with the Kakao Pay provider, always in KO_KR", async () => {
    const { sdk } = (await gateway().begin(request({ method: "kakaopay", locale: "en" }))) as { sdk: Record<string, unknown> };
    expect(sdk).toEqual({
      ...common,
      channelKey: PORTONE_CHANNEL_KEYS.kakaopay,
      payMethod: "EASY_PAY",
      easyPay: { easyPayProvider: "EASY_PAY_PROVIDER_KAKAOPAY" },
      locale: "KO_KR",
    });
  });

  it("vbank: payMethod VIRTUAL_ACCOUNT with the due date as Asia/Seoul wall-clock time", async () => {
    const begin = async (vbankDueAt: string) =>
      ((await gateway().begin(request({ method: "vbank", vbankDueAt }))) as { sdk: Record<string, unknown> }).sdk;
    expect(await begin("2026-01-02T14:59:59Z")).toEqual({
      ...common,
      channelKey: PORTONE_CHANNEL_KEYS.vbank,
      payMethod: "VIRTUAL_ACCOUNT",
      virtualAccount: { accountExpiry: { dueDate: "2026-01-02 23:59:59" } },
    });
    // 15:00 UTC is already the next day in Seoul (UTC+9); an offset in the input is honoured.
    expect((await begin("2026-12-31T15:00:00Z")).virtualAccount).toEqual({ accountExpiry: { dueDate: "2027-01-01 00:00:00" } });
    expect((await begin("2026-03-01T08:30:00+09:00")).virtualAccount).toEqual({ accountExpiry: { dueDate: "2026-03-01 08:30:00" } });
    expect((await gatewayError(begin("not a date"))).code).toBe("INVALID_REQUEST");
  });

  it("USD in English: CURRENCY_USD in cents and the EN_US locale, with the buyer's name", async () => {
    const { sdk } = (await gateway().begin(
      request({ currency: "USD", amount: 1999, vat: 0, locale: "en", buyer: { email: "b@example.com", name: "Kim Min" } }),
    )) as { sdk: Record<string, unknown> };
    expect(sdk).toMatchObject({
      totalAmount: 1999,
      currency: "CURRENCY_USD",
      vatAmount: 0,
      locale: "EN_US",
      customer: { email: "b@example.com", fullName: "Kim Min" },
    });
  });

  it("refuses PayPal and methods without a channel key (METHOD_NOT_AVAILABLE)", async () => {
    expect((await gatewayError(gateway().begin(request({ method: "paypal" })))).code).toBe("METHOD_NOT_AVAILABLE");
    const cardOnly = gateway({ channelKeys: { card: "ck-card" } });
    expect((await gatewayError(cardOnly.begin(request({ method: "vbank" })))).code).toBe("METHOD_NOT_AVAILABLE");
  });
});

describe("PortOne confirm (after the redirect, §1.2)", () => {
  it("answers the payment as PortOne holds it, also when the redirect reports a failure", async () => {
    portone.setPayment({ id: "order-ok", amount: 11000, status: "PAID" });
    const ok = await gateway().confirm("order-ok", new URLSearchParams({ paymentId: "order-ok" }));
    expect(ok).toMatchObject({ status: "paid", amount: { paid: 11000 } });

    portone.setPayment({ id: "order-ko", amount: 11000, status: "FAILED" });
    const failed = await gateway().confirm(
      "order-ko",
      new URLSearchParams({ paymentId: "order-ko", code: "FAILURE_TYPE_PG", message: "결제 실패", pgCode: "V810" }),
    );
    expect(failed.status).toBe("failed");
    expect(portone.requests.map((r) => r.path)).toEqual(["/payments/order-ok", "/payments/order-ko"]);
  });

  it("throws PAYMENT_NOT_FOUND for a payment PortOne does not know", async () => {
    const error = await gatewayError(gateway().confirm("order-ghost", new URLSearchParams({ paymentId: "order-ghost" })));
    expect(error.code).toBe("PAYMENT_NOT_FOUND");
  });
});

describe("PortOne cancel (POST /payments/{paymentId}/cancel, §1.4)", () => {
  it("cancels in full when no amount is given (amount is omitted from the body)", async () => {
    portone.setPayment({ id: "order-full", amount: 11000, status: "PAID" });
    const cancellation = await gateway().cancel("order-full", { reason: "고객 요청" });
    expect(cancellation).toEqual({ cancellationId: expect.stringMatching(/^cancel-/), status: "succeeded", amount: 11000 });
    expect(portone.requests[0]).toMatchObject({ method: "POST", path: "/payments/order-full/cancel", body: { reason: "고객 요청" } });
    expect(portone.requests[0].body).not.toHaveProperty("amount");
    expect(await gateway().getPayment("order-full")).toMatchObject({ status: "cancelled", amount: { paid: 11000, cancelled: 11000 } });
  });

  it("cancels partially, and again with the expected balance", async () => {
    portone.setPayment({ id: "order-part", amount: 11000, status: "PAID" });
    expect(await gateway().cancel("order-part", { reason: "부분 환불", amount: 3000 })).toMatchObject({
      status: "succeeded",
      amount: 3000,
    });
    expect(await gateway().getPayment("order-part")).toMatchObject({ status: "partial_cancelled", amount: { cancelled: 3000 } });

    await gateway().cancel("order-part", { reason: "나머지 환불", amount: 8000, currentCancellableAmount: 8000 });
    expect(portone.requests.at(-1)?.body).toEqual({ reason: "나머지 환불", amount: 8000, currentCancellableAmount: 8000 });
    expect(await gateway().getPayment("order-part")).toMatchObject({ status: "cancelled", amount: { cancelled: 11000 } });
  });

  it("throws CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT beyond the balance", async () => {
    portone.setPayment({ id: "order-big", amount: 11000, status: "PARTIAL_CANCELLED", cancelled: 5000 });
    const error = await gatewayError(gateway().cancel("order-big", { reason: "too much", amount: 6001 }));
    expect([error.code, error.status]).toEqual(["CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT", 409]);
    expect(portone.payment("order-big")?.amount.cancelled).toBe(5000);
  });

  it("throws PAYMENT_ALREADY_CANCELLED for a cancelled payment and PAYMENT_NOT_PAID for an unpaid one", async () => {
    portone.setPayment({ id: "order-gone", amount: 11000, status: "CANCELLED" });
    expect((await gatewayError(gateway().cancel("order-gone", { reason: "again" }))).code).toBe("PAYMENT_ALREADY_CANCELLED");
    portone.setPayment({ id: "order-ready", amount: 11000 });
    expect((await gatewayError(gateway().cancel("order-ready", { reason: "unpaid" }))).code).toBe("PAYMENT_NOT_PAID");
  });

  it("refunds a paid virtual account only to a refund account", async () => {
    portone.setPayment({ id: "order-va-paid", amount: 33000, method: "vbank", status: "PAID" });
    const missing = await gatewayError(gateway().cancel("order-va-paid", { reason: "환불", amount: 29700 }));
    expect([missing.code, missing.status]).toEqual(["INVALID_REQUEST", 400]);

    const refundAccount = { bank: "SHINHAN", number: "110123456789", holderName: "홍길동", holderPhoneNumber: "01012345678" };
    // The market's "10% deducted" virtual-account refund: a partial cancel of the rest (§1.4 market rules).
    const cancellation = await gateway().cancel("order-va-paid", { reason: "환불", amount: 29700, refundAccount });
    expect(cancellation).toMatchObject({ status: "succeeded", amount: 29700 });
    expect(portone.requests.at(-1)?.body).toEqual({ reason: "환불", amount: 29700, refundAccount });
    expect((await gateway().getPayment("order-va-paid"))?.status).toBe("partial_cancelled");
  });

  it("throws CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN when the expected balance is stale", async () => {
    portone.setPayment({ id: "order-stale", amount: 11000, status: "PARTIAL_CANCELLED", cancelled: 1000 });
    const error = await gatewayError(gateway().cancel("order-stale", { reason: "x", amount: 1000, currentCancellableAmount: 11000 }));
    expect([error.code, error.status]).toEqual(["CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN", 409]);
  });

  it("reports a PG failure (502 PG_PROVIDER with the PG's code) and an asynchronous cancel (REQUESTED)", async () => {
    portone.setPayment({ id: "order-pg", amount: 11000, status: "PAID" });
    portone.nextCancel("order-pg", { kind: "pg_error", pgCode: "2001", pgMessage: "취소 불가 거래" });
    const error = await gatewayError(gateway().cancel("order-pg", { reason: "x" }));
    expect([error.code, error.status]).toEqual(["PG_PROVIDER", 502]);
    expect(error.message).toContain("2001");

    portone.nextCancel("order-pg", { kind: "requested" });
    expect(await gateway().cancel("order-pg", { reason: "x" })).toMatchObject({ status: "requested", amount: 11000 });
  });

  it("throws PAYMENT_NOT_FOUND when cancelling a payment PortOne does not know", async () => {
    const error = await gatewayError(gateway().cancel("order-none", { reason: "x" }));
    expect([error.code, error.status]).toEqual(["PAYMENT_NOT_FOUND", 404]);
  });
});

describe("PortOne closeVirtualAccount (POST /payments/{paymentId}/virtual-account/close, §1.5)", () => {
  it("closes an account waiting for its deposit, and refuses when none is waiting (409)", async () => {
    portone.setPayment({ id: "order-va-open", amount: 33000, status: "VIRTUAL_ACCOUNT_ISSUED" });
    await expect(gateway().closeVirtualAccount("order-va-open")).resolves.toBeUndefined();
    expect(portone.requests[0]).toMatchObject({ method: "POST", path: "/payments/order-va-open/virtual-account/close" });

    const again = await gatewayError(gateway().closeVirtualAccount("order-va-open"));
    expect([again.code, again.status]).toEqual(["PAYMENT_NOT_WAITING_FOR_DEPOSIT", 409]);
    portone.setPayment({ id: "order-va-deposited", amount: 33000, method: "vbank", status: "PAID" });
    expect((await gatewayError(gateway().closeVirtualAccount("order-va-deposited"))).code).toBe("PAYMENT_NOT_WAITING_FOR_DEPOSIT");
  });
});

describe("PortOne webhooks (Standard Webhooks, §1.6)", () => {
  const verify = (body: string, headers: Record<string, string>, secret = PORTONE_WEBHOOK_SECRET) =>
    gateway({ webhookSecret: secret }).verifyWebhook(body, new Headers(headers));

  async function refused(promise: Promise<unknown>) {
    expect(await rejection(promise)).toBeInstanceOf(WebhookVerificationFailed);
  }

  it("accepts a correctly signed delivery: webhook-id, type and payment id", async () => {
    const body = portOneWebhookBody("Transaction.Paid", { paymentId: "order-0001" });
    const headers = signPortOneWebhook(body, { id: "msg_2a7f" });
    expect(await verify(body, headers)).toEqual({ eventId: "msg_2a7f", type: "Transaction.Paid", gatewayPaymentId: "order-0001" });
  });

  it("accepts a secret without the whsec_ prefix and any matching signature of several (rotation)", async () => {
    const body = portOneWebhookBody("Transaction.VirtualAccountIssued", { paymentId: "order-va" });
    const headers = signPortOneWebhook(body, { extraSignatures: ["v1,bm90IGEgc2lnbmF0dXJl"] });
    expect((await verify(body, headers, PORTONE_WEBHOOK_SECRET.replace(/^whsec_/, ""))).gatewayPaymentId).toBe("order-va");
  });

  it("refuses a tampered body", async () => {
    const body = portOneWebhookBody("Transaction.Paid", { paymentId: "order-0001" });
    const headers = signPortOneWebhook(body);
    await refused(verify(body.replace("order-0001", "order-0002"), headers));
  });

  it("refuses a delivery signed with another secret", async () => {
    const body = portOneWebhookBody("Transaction.Paid", { paymentId: "order-0001" });
    const other = `whsec_${Buffer.from("someone else's webhook key").toString("base64")}`;
    await refused(verify(body, signPortOneWebhook(body, { secret: other })));
  });

  it("refuses timestamps more than 300 s old or ahead, and accepts one just inside the window", async () => {
    const body = portOneWebhookBody("Transaction.Paid", { paymentId: "order-0001" });
    const now = Math.floor(Date.now() / 1000);
    await refused(verify(body, signPortOneWebhook(body, { timestamp: now - 301 })));
    await refused(verify(body, signPortOneWebhook(body, { timestamp: now + 301 })));
    expect((await verify(body, signPortOneWebhook(body, { timestamp: now - 290 }))).type).toBe("Transaction.Paid");
  });

  it("refuses a delivery missing any of the three headers, or with a malformed timestamp", async () => {
    const body = portOneWebhookBody("Transaction.Paid", { paymentId: "order-0001" });
    const headers = signPortOneWebhook(body);
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      const { [name]: _dropped, ...rest } = headers;
      await refused(verify(body, rest));
    }
    await refused(verify(body, {}));
    await refused(verify(body, { ...headers, "webhook-timestamp": `${headers["webhook-timestamp"]}abc` }));
  });

  it("refuses everything when the configured secret is unusable", async () => {
    const body = portOneWebhookBody("Transaction.Paid", { paymentId: "order-0001" });
    await refused(verify(body, signPortOneWebhook(body), ""));
  });

  it("accepts unknown event types, with or without a payment id", async () => {
    const billing = JSON.stringify({
      type: "BillingKey.Issued",
      timestamp: "2026-01-01T00:00:00Z",
      data: { storeId: PORTONE_STORE_ID, billingKey: "bk-1" },
    });
    expect(await verify(billing, signPortOneWebhook(billing, { id: "msg_bk" }))).toEqual({
      eventId: "msg_bk",
      type: "BillingKey.Issued",
      gatewayPaymentId: null,
    });
    const future = portOneWebhookBody("Transaction.SomethingNew", { paymentId: "order-0003" });
    expect(await verify(future, signPortOneWebhook(future))).toMatchObject({
      type: "Transaction.SomethingNew",
      gatewayPaymentId: "order-0003",
    });
  });

  it("a deposit webhook leads the store to a paid payment (verify, then re-read)", async () => {
    portone.setPayment({ id: "order-deposit", amount: 33000, status: "VIRTUAL_ACCOUNT_ISSUED" });
    portone.markPaid("order-deposit");
    const body = portOneWebhookBody("Transaction.Paid", { paymentId: "order-deposit" });
    const event = await verify(body, signPortOneWebhook(body));
    expect(event.gatewayPaymentId).toBe("order-deposit");
    expect(await gateway().getPayment(event.gatewayPaymentId ?? "")).toMatchObject({
      status: "paid",
      method: "vbank",
      amount: { paid: 33000 },
    });
  });
});
