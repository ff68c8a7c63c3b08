/**
 * The built-in sandbox gateway: the offline default, clearly in test mode. It plays an outside payment service
 * with its own ledger (`sandbox_payments`), a hosted payment page (`/sandbox/pay/{paymentId}`, routes
 * `sandbox.pay.$id.tsx`) where the test payer approves, declines or abandons, or receives a virtual account, and
 * signed webhooks to the store in PortOne V2's format (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`; body `{type:"Transaction.Paid", timestamp, data:{paymentId, storeId, transactionId}}`).
 * The store treats it exactly like a real gateway: it trusts only what `getPayment` answers.
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { Webhook } from "standardwebhooks";
import type { DB } from "../../db/db.server";
import type { Database, SandboxPaymentsTable } from "../../db/schema";
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

type Executor = Kysely<Database> | Transaction<Database>;

type Row = Omit<SandboxPaymentsTable, "paid" | "cancelled"> & { paid: number; cancelled: number };

export type SandboxAction = "approve" | "decline" | "abandon" | "deposit";

/** Delivers one webhook: POST the body with the headers to the URL; true when the store answered 2xx. */
export type WebhookDelivery = (url: string, body: string, headers: Record<string, string>) => Promise<boolean>;

export interface SandboxGateway extends PaymentGateway {
  /** The hosted page's view of a payment. */
  find(paymentId: string): Promise<Row | null>;
  /** What the test payer did on the hosted page; answers where their browser goes next. */
  act(paymentId: string, action: SandboxAction): Promise<{ location: string }>;
  /** Sends a webhook for the payment's current state (again): how tests deliver late and repeated notifications. */
  notify(paymentId: string, type?: string): Promise<void>;
  /** Resolves when every webhook sent in the background so far has been delivered (or given up). */
  settled(): Promise<void>;
  /** Whether a notification is due (a read: the scheduler takes the delivery lease only then). */
  hasDue(): Promise<boolean>;
  /**
   * Delivers the notifications that are due: every second, by one process at a time across servers (the
   * "sandbox-webhooks" lease, app/market/scheduled-jobs.server.ts). Each row is claimed besides, so two deliverers
   * never send the same attempt.
   */
  deliverDue(): Promise<number>;
}

/** The sandbox's webhook secret, derived from the store's session secret (whsec_ + base64 key). */
export function sandboxWebhookSecret(sessionSecret: string): string {
  return `whsec_${createHmac("sha256", sessionSecret).update("sandbox-webhook").digest("base64")}`;
}

/** Default delivery: one POST with a 10 s timeout (the outbox retries). */
export const fetchDelivery: WebhookDelivery = async (url, body, headers) => {
  try {
    const res = await fetch(url, { method: "POST", body, headers, signal: AbortSignal.timeout(10_000) });
    return res.ok;
  } catch {
    return false;
  }
};

/** Retries after 1 s, 4 s, 16 s, 64 s, 256 s, then gives up (PortOne retries 5 times with backoff). */
const MAX_ATTEMPTS = 6;
const backoffMs = (attempts: number) => 1000 * 4 ** (attempts - 1);
/** How long one server holds a notification it is delivering before another may take it over. */
const LEASE_MS = 30_000;

const EVENT_OF: Partial<Record<GatewayStatus, string>> = {
  paid: "Transaction.Paid",
  vbank_issued: "Transaction.VirtualAccountIssued",
  failed: "Transaction.Failed",
  cancelled: "Transaction.Cancelled",
  partial_cancelled: "Transaction.PartialCancelled",
  ready: "Transaction.Ready",
};

export function createSandboxGateway(options: {
  db: DB;
  secret: string;
  deliver?: WebhookDelivery;
  now?: () => Date;
  /** Deliveries of each notification (same webhook-id): more than 1 makes repeated deliveries. */
  repeat?: number;
  /** Each delivery waits a random 0..maxDelayMs first: late and out-of-order notifications. */
  maxDelayMs?: number;
}): SandboxGateway {
  const { db } = options;
  const deliver = options.deliver ?? fetchDelivery;
  const now = options.now ?? (() => new Date());
  const signer = new Webhook(options.secret);
  const repeat = Math.max(1, options.repeat ?? 1);
  const maxDelayMs = Math.max(0, options.maxDelayMs ?? 0);
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>) => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
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

  /** Writes the payment's current state to the outbox: `repeat` deliveries of one event. */
  async function queue(exec: Executor, row: Row, type?: string): Promise<string[]> {
    const at = now();
    const msgId = `msg_${randomUUID()}`;
    const body = JSON.stringify({
      type: type ?? EVENT_OF[row.status as GatewayStatus] ?? "Transaction.Ready",
      timestamp: at.toISOString(),
      data: { paymentId: row.id, storeId: "store-sandbox", transactionId: `tx-${row.id}` },
    });
    const rows = Array.from({ length: repeat }, (_, n) => ({
      id: `${msgId}.${n}`,
      msg_id: msgId,
      payment_id: row.id,
      url: row.webhook_url,
      body,
      attempts: 0,
      next_at: new Date(at.getTime() + (maxDelayMs ? Math.floor(Math.random() * maxDelayMs) : 0)).toISOString(),
      created_at: at.toISOString(),
    }));
    await exec.insertInto("sandbox_webhooks").values(rows).execute();
    return rows.map((r) => r.id);
  }

  /**
   * One delivery attempt of one outbox row, if it is due and no other server holds it: signed now (a retry keeps
   * its webhook-id and gets a fresh timestamp and signature, as Standard Webhooks retries do).
   */
  async function attempt(id: string): Promise<boolean> {
    const at = now();
    const claimed = await db
      .updateTable("sandbox_webhooks")
      .set({ next_at: new Date(at.getTime() + LEASE_MS).toISOString() })
      .where("id", "=", id)
      .where("delivered_at", "is", null)
      .where("next_at", "<=", at.toISOString())
      .where("attempts", "<", MAX_ATTEMPTS)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    const row = await db.selectFrom("sandbox_webhooks").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const headers = {
      "content-type": "application/json",
      "webhook-id": row.msg_id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signer.sign(row.msg_id, at, row.body),
    };
    const delivered = await deliver(row.url, row.body, headers).catch(() => false);
    const attempts = row.attempts + 1;
    await db
      .updateTable("sandbox_webhooks")
      .set(
        delivered
          ? { attempts, delivered_at: now().toISOString() }
          : { attempts, next_at: new Date(now().getTime() + backoffMs(attempts)).toISOString() },
      )
      .where("id", "=", id)
      .execute();
    return delivered;
  }

  /** Delivers what is due now, in the background; delayed deliveries wait for the worker. */
  const kick = (ids: string[]) => {
    for (const id of ids) track(attempt(id));
  };

  async function deliverDue(): Promise<number> {
    const due = await db
      .selectFrom("sandbox_webhooks")
      .select("id")
      .where("delivered_at", "is", null)
      .where("next_at", "<=", now().toISOString())
      .where("attempts", "<", MAX_ATTEMPTS)
      .orderBy("next_at")
      .limit(100)
      .execute();
    const results = await Promise.all(due.map((r) => track(attempt(r.id))));
    return results.filter(Boolean).length;
  }

  async function notify(paymentId: string, type?: string) {
    const row = await find(paymentId);
    if (!row) return;
    const ids = await queue(db, row, type);
    await Promise.all(ids.map((id) => track(attempt(id))));
  }

  /**
   * Moves a payment from one of `from` to a new state and queues its notification in the same transaction;
   * false when another request moved it first.
   */
  async function transition(id: string, from: GatewayStatus[], set: Partial<Row>): Promise<boolean> {
    const queued = await db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable("sandbox_payments")
        .set({ ...set, updated_at: now().toISOString() })
        .where("id", "=", id)
        .where("status", "in", from)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return null;
      const row = (await trx.selectFrom("sandbox_payments").selectAll().where("id", "=", id).executeTakeFirstOrThrow()) as Row;
      return queue(trx, row);
    });
    if (!queued) return false;
    kick(queued);
    return true;
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
      const queued = await db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable("sandbox_payments")
          .set({ cancelled: row.cancelled + amount, status: full ? "cancelled" : "partial_cancelled", updated_at: now().toISOString() })
          .where("id", "=", row.id)
          .where("cancelled", "=", row.cancelled)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return null;
        return queue(trx, (await trx.selectFrom("sandbox_payments").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow()) as Row);
      });
      if (!queued) throw new GatewayError("CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN", "concurrent cancel", 409);
      kick(queued);
      return { cancellationId: `cancel-${randomBytes(8).toString("hex")}`, status: "succeeded", amount };
    },

    async closeVirtualAccount(gatewayPaymentId) {
      if (!(await transition(gatewayPaymentId, ["vbank_issued", "ready"], { status: "cancelled" })))
        throw new GatewayError("PAYMENT_NOT_WAITING_FOR_DEPOSIT", "not waiting for a deposit", 409);
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
      while (inFlight.size) await Promise.all([...inFlight].map((p) => p.catch(() => {})));
    },
    deliverDue,
    async hasDue() {
      const row = await db
        .selectFrom("sandbox_webhooks")
        .select("id")
        .where("delivered_at", "is", null)
        .where("next_at", "<=", now().toISOString())
        .where("attempts", "<", MAX_ATTEMPTS)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
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
      // A second click (or a retry after a dropped connection) finds the payment already moved: same answer.
      if (action === "approve" && row.method === "vbank") {
        const account = `9${String(randomBytes(5).readUIntBE(0, 5)).padStart(12, "0").slice(0, 12)}`;
        await transition(row.id, ["ready"], { status: "vbank_issued", vbank_bank: "Sandbox Bank", vbank_account: account });
      } else if (action === "approve") {
        await transition(row.id, ["ready"], { status: "paid", paid: row.amount, paid_at: at });
      } else if (action === "decline") {
        await transition(row.id, ["ready"], { status: "failed", failure_reason: "Declined by the test payer" });
      } else if (action === "deposit") {
        await transition(row.id, ["vbank_issued"], { status: "paid", paid: row.amount, paid_at: at });
      }
      return { location: back(row.return_url) };
    },
  };
}
