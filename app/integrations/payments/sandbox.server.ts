/**
 * The built-in sandbox gateway: the offline default, clearly in test mode. It plays an outside payment service
 * with its own ledger (`sandbox_payments`), a hosted payment page (`/sandbox/pay/{paymentId}`, routes
 * `sandbox.pay.$id.tsx`) where the test payer approves, declines or abandons, or receives a virtual account, and
 * signed webhooks to the store in PortOne V2's format (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`; body `{type:"Transaction.Paid", timestamp, data:{paymentId, storeId, transactionId}}`).
 * The store treats it exactly like a real gateway: it trusts only what `getPayment` answers.
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { DB } from "../../db/db.server";
import type { SandboxPaymentsTable } from "../../db/schema";
import {
  type Cancellation,
  type CancelRequest,
  GatewayError,
  type GatewayPayment,
  type GatewayStatus,
  type GatewayWebhook,
  type PayMethod,
  type PaymentGateway,
  type PaymentRequest,
  WebhookVerificationFailed,
} from "./gateway";

type Row = Omit<SandboxPaymentsTable, "paid" | "cancelled"> & { paid: number; cancelled: number };

export type SandboxAction = "approve" | "decline" | "abandon" | "deposit";

/** Delivers one webhook: POST the body with the headers to the URL (tests call the app in-process instead). */
export type WebhookDelivery = (url: string, body: string, headers: Record<string, string>) => Promise<void>;

export interface SandboxGateway extends PaymentGateway {
  /** The hosted page's view of a payment. */
  find(paymentId: string): Promise<Row | null>;
  /** What the test payer did on the hosted page; answers where their browser goes next. */
  act(paymentId: string, action: SandboxAction): Promise<{ location: string }>;
  /** Sends a webhook for the payment's current state (again): how tests deliver late and repeated notifications. */
  notify(paymentId: string, type?: string): Promise<void>;
  /** Resolves when every webhook sent in the background so far has been delivered (or given up). */
  settled(): Promise<void>;
}

/** The sandbox's webhook secret, derived from the store's session secret (whsec_ + base64 key). */
export function sandboxWebhookSecret(sessionSecret: string): string {
  return `whsec_${createHmac("sha256", sessionSecret).update("sandbox-webhook").digest("base64")}`;
}

/** Default delivery: POST with a 10 s timeout, retried twice with backoff, as a real gateway retries. */
export const fetchDelivery: WebhookDelivery = async (url, body, headers) => {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const res = await fetch(url, { method: "POST", body, headers, signal: AbortSignal.timeout(10_000) });
      if (res.ok) return;
    } catch {
      // retried below
    }
    await new Promise((r) => setTimeout(r, 500 * 4 ** attempt));
  }
};

const EVENT_OF: Partial<Record<GatewayStatus, string>> = {
  paid: "Transaction.Paid",
  vbank_issued: "Transaction.VirtualAccountIssued",
  failed: "Transaction.Failed",
  cancelled: "Transaction.Cancelled",
  partial_cancelled: "Transaction.PartialCancelled",
  ready: "Transaction.Ready",
};

export function createSandboxGateway(options: { db: DB; secret: string; deliver?: WebhookDelivery; now?: () => Date }): SandboxGateway {
  const { db } = options;
  const deliver = options.deliver ?? fetchDelivery;
  const now = options.now ?? (() => new Date());
  const signer = new Webhook(options.secret);
  const inFlight = new Set<Promise<void>>();
  /** Notifies in the background, as a gateway does after answering the payer. */
  const notifyLater = (paymentId: string) => {
    const p = notify(paymentId).catch(() => {});
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };

  const find = async (paymentId: string) =>
    ((await db.selectFrom("sandbox_payments").selectAll().where("id", "=", paymentId).executeTakeFirst()) as Row | undefined) ?? null;

  const toPayment = (row: Row): GatewayPayment => ({
    gatewayPaymentId: row.id,
    paymentId: row.payment_id,
    status: row.status as GatewayStatus,
    currency: row.currency,
    amount: { total: row.amount, paid: row.paid, cancelled: row.cancelled },
    method: row.method as PayMethod,
    paidAt: row.paid_at ?? undefined,
    vbank: row.vbank_account
      ? { bank: row.vbank_bank ?? "", accountNumber: row.vbank_account, holder: "VideoAsset Market", dueAt: row.vbank_due_at ?? undefined }
      : undefined,
    failure: row.failure_reason ? { reason: row.failure_reason } : undefined,
  });

  async function notify(paymentId: string, type?: string) {
    const row = await find(paymentId);
    if (!row) return;
    const eventType = type ?? EVENT_OF[row.status as GatewayStatus] ?? "Transaction.Ready";
    const sentAt = now();
    const body = JSON.stringify({
      type: eventType,
      timestamp: sentAt.toISOString(),
      data: { paymentId: row.id, storeId: "store-sandbox", transactionId: `tx-${row.id}` },
    });
    const id = `msg_${randomUUID()}`;
    const headers = {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
      "webhook-signature": signer.sign(id, sentAt, body),
    };
    await deliver(row.webhook_url, body, headers);
  }

  /** Moves a payment from one of `from` to a new state; false when another request moved it first. */
  async function transition(id: string, from: GatewayStatus[], set: Partial<Row>): Promise<boolean> {
    const result = await db
      .updateTable("sandbox_payments")
      .set({ ...set, updated_at: now().toISOString() })
      .where("id", "=", id)
      .where("status", "in", from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  return {
    name: "sandbox",
    testMode: true,
    methods: ["card", "phone", "kakaopay", "vbank", "paypal"],

    async begin(request: PaymentRequest) {
      if (!Number.isInteger(request.amount) || request.amount <= 0) throw new GatewayError("INVALID_REQUEST", "amount must be positive");
      const at = now().toISOString();
      const existing = await find(request.paymentId);
      if (existing && existing.status !== "ready") throw new GatewayError("ALREADY_PAID", "this payment id was already used");
      if (!existing) {
        await db
          .insertInto("sandbox_payments")
          .values({
            id: request.paymentId,
            payment_id: request.paymentId,
            order_name: request.orderName,
            amount: request.amount,
            vat: request.vat,
            currency: request.currency,
            method: request.method,
            status: "ready",
            buyer_email: request.buyer.email,
            locale: request.locale,
            vbank_due_at: request.vbankDueAt ?? null,
            return_url: request.returnUrl,
            cancel_url: request.cancelUrl,
            webhook_url: request.webhookUrl,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
      return { kind: "redirect", gatewayPaymentId: request.paymentId, url: `/sandbox/pay/${encodeURIComponent(request.paymentId)}` };
    },

    async confirm(gatewayPaymentId) {
      const row = await find(gatewayPaymentId);
      if (!row) throw new GatewayError("PAYMENT_NOT_FOUND", "unknown payment", 404);
      return toPayment(row);
    },

    async getPayment(gatewayPaymentId) {
      const row = await find(gatewayPaymentId);
      return row ? toPayment(row) : null;
    },

    async cancel(gatewayPaymentId, request: CancelRequest): Promise<Cancellation> {
      const row = await find(gatewayPaymentId);
      if (!row) throw new GatewayError("PAYMENT_NOT_FOUND", "unknown payment", 404);
      if (row.status === "cancelled") throw new GatewayError("PAYMENT_ALREADY_CANCELLED", "already cancelled", 409);
      if (row.status !== "paid" && row.status !== "partial_cancelled") throw new GatewayError("PAYMENT_NOT_PAID", "not paid", 409);
      const cancellable = row.paid - row.cancelled;
      if (request.currentCancellableAmount !== undefined && request.currentCancellableAmount !== cancellable)
        throw new GatewayError("CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN", "cancellable amount changed", 409);
      const amount = request.amount ?? cancellable;
      if (!Number.isInteger(amount) || amount <= 0 || amount > cancellable)
        throw new GatewayError("CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT", "cancel amount exceeds the cancellable amount", 409);
      if (row.method === "vbank" && !request.refundAccount) throw new GatewayError("INVALID_REQUEST", "refundAccount is required", 400);
      if (row.method === "phone" && amount !== cancellable)
        throw new GatewayError("PG_PROVIDER", "mobile phone payments cannot be partially cancelled", 502);
      const full = row.cancelled + amount === row.paid;
      const moved = await db
        .updateTable("sandbox_payments")
        .set({ cancelled: row.cancelled + amount, status: full ? "cancelled" : "partial_cancelled", updated_at: now().toISOString() })
        .where("id", "=", row.id)
        .where("cancelled", "=", row.cancelled)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new GatewayError("CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN", "concurrent cancel", 409);
      notifyLater(row.id);
      return { cancellationId: `cancel-${randomBytes(8).toString("hex")}`, status: "succeeded", amount };
    },

    async closeVirtualAccount(gatewayPaymentId) {
      if (!(await transition(gatewayPaymentId, ["vbank_issued", "ready"], { status: "cancelled" })))
        throw new GatewayError("PAYMENT_NOT_WAITING_FOR_DEPOSIT", "not waiting for a deposit", 409);
      notifyLater(gatewayPaymentId);
    },

    async verifyWebhook(rawBody, headers): Promise<GatewayWebhook> {
      const wanted = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;
      const values = Object.fromEntries(wanted.map((h) => [h, headers.get(h) ?? ""]));
      let body: { type?: unknown; data?: { paymentId?: unknown } };
      try {
        body = signer.verify(rawBody, values) as typeof body;
      } catch (error) {
        throw new WebhookVerificationFailed(error instanceof Error ? error.message : "verification failed");
      }
      return {
        eventId: values["webhook-id"],
        type: typeof body.type === "string" ? body.type : "unknown",
        gatewayPaymentId: typeof body.data?.paymentId === "string" ? body.data.paymentId : null,
      };
    },

    find,
    notify,
    async settled() {
      while (inFlight.size) await Promise.all([...inFlight]);
    },

    async act(paymentId, action) {
      const row = await find(paymentId);
      if (!row) throw new GatewayError("PAYMENT_NOT_FOUND", "unknown payment", 404);
      const back = (url: string) => {
        const u = new URL(url, "http://local");
        u.searchParams.set("paymentId", row.id);
        return url.startsWith("http") ? u.toString() : `${u.pathname}${u.search}`;
      };
      const at = now().toISOString();
      if (action === "abandon") return { location: back(row.cancel_url) };
      let moved = false;
      if (action === "approve" && row.method === "vbank") {
        const account = `9${String(randomBytes(5).readUIntBE(0, 5)).padStart(12, "0").slice(0, 12)}`;
        moved = await transition(row.id, ["ready"], { status: "vbank_issued", vbank_bank: "Sandbox Bank", vbank_account: account });
      } else if (action === "approve") {
        moved = await transition(row.id, ["ready"], { status: "paid", paid: row.amount, paid_at: at });
      } else if (action === "decline") {
        moved = await transition(row.id, ["ready"], { status: "failed", failure_reason: "Declined by the test payer" });
      } else if (action === "deposit") {
        moved = await transition(row.id, ["vbank_issued"], { status: "paid", paid: row.amount, paid_at: at });
      }
      if (moved) notifyLater(row.id);
      return { location: back(row.return_url) };
    },
  };
}
