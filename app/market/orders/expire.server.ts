/**
 * Unpaid virtual-account orders past their deadline (23:59:59 Asia/Seoul the next day) are cancelled and removed
 * from the history. Safe on several servers at once: each order is claimed by one conditional update
 * (waiting → expiring) before anything else happens, so exactly one server handles it.
 */
import type { DB } from "../../db/db.server";
import { isGatewayError } from "../../integrations/payments/gateway";
import type { Gateways } from "../../integrations/payments/index.server";
import { restoreOrderToCart } from "./cart-lines.server";
import { queueVbankCancelled } from "./mails.server";
import { settlePayment } from "./orders.server";

export async function expireVirtualAccounts(db: DB, gateways: Gateways, now = new Date()): Promise<{ expired: number; paidLate: number }> {
  const due = await db
    .selectFrom("orders")
    .select(["id", "gateway", "gateway_payment_id"])
    .where("status", "=", "waiting")
    .where("vbank_due_at", "<", now.toISOString())
    .limit(500)
    .execute();
  let expired = 0;
  let paidLate = 0;
  for (const order of due) {
    const gateway = order.gateway ? gateways.byName(order.gateway) : null;
    if (!gateway || !order.gateway_payment_id) continue;
    // A deposit that arrived just before the deadline but whose webhook has not: settle it instead.
    const payment = await gateway.getPayment(order.gateway_payment_id).catch(() => null);
    if (payment?.status === "paid") {
      if ((await settlePayment(db, gateway, payment, now)) === "complete") paidLate++;
      continue;
    }
    const claim = await db
      .updateTable("orders")
      .set({ status: "expiring", updated_at: now.toISOString() })
      .where("id", "=", order.id)
      .where("status", "=", "waiting")
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue;
    try {
      await gateway.closeVirtualAccount(order.gateway_payment_id);
    } catch (error) {
      // Already closed is what we wanted; anything else: hand the order back for the next run.
      if (!(isGatewayError(error) && error.code === "PAYMENT_NOT_WAITING_FOR_DEPOSIT")) {
        await db.updateTable("orders").set({ status: "waiting" }).where("id", "=", order.id).where("status", "=", "expiring").execute();
        continue;
      }
      const after = await gateway.getPayment(order.gateway_payment_id).catch(() => null);
      if (after?.status === "paid") {
        await db.updateTable("orders").set({ status: "waiting" }).where("id", "=", order.id).where("status", "=", "expiring").execute();
        if ((await settlePayment(db, gateway, after, now)) === "complete") paidLate++;
        continue;
      }
    }
    // Cancelled and removed from the history; the payer hears why, in the same transaction.
    const removed = await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom("orders").selectAll().where("id", "=", order.id).where("status", "=", "expiring").executeTakeFirst();
      if (!row) return false;
      // Its items go back to the member's cart (they left it when the account was issued).
      await restoreOrderToCart(trx, row, now);
      await trx.deleteFrom("orders").where("id", "=", order.id).where("status", "=", "expiring").execute();
      await queueVbankCancelled(trx, row, now);
      return true;
    });
    if (removed) expired++;
  }
  return { expired, paidLate };
}
