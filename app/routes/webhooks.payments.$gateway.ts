import type { ActionFunctionArgs } from "@remix-run/node";
import { isWebhookVerificationFailed } from "../integrations/payments/gateway";
import { MarketError } from "../market/errors";
import { handleWebhook } from "../market/orders/orders.server";

/**
 * Gateway notifications. The raw body is verified by the gateway's signature scheme; a delivery seen before is
 * acknowledged and ignored; otherwise the payment is read back from the gateway and the order settled. A 5xx
 * makes the gateway deliver again later.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ ok: false }, { status: 405 });
  const raw = await request.text();
  try {
    const result = await handleWebhook(context.db, context.payments, params.gateway ?? "", raw, request.headers);
    return Response.json({ ok: true, duplicate: result.duplicate });
  } catch (error) {
    if (isWebhookVerificationFailed(error)) return Response.json({ ok: false, error: "invalid signature" }, { status: 400 });
    if (error instanceof MarketError) return Response.json({ ok: false, error: error.code }, { status: error.status });
    console.error(JSON.stringify({ level: "error", msg: "webhook failed", requestId: context.requestId, error: String(error) }));
    return Response.json({ ok: false, error: "try again" }, { status: 503 });
  }
}

export async function loader() {
  return Response.json({ ok: false }, { status: 405 });
}
