import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { isGatewayError } from "../integrations/payments/gateway";
import { MarketError } from "../market/errors";
import { confirmReturn } from "../market/orders/orders.server";

/**
 * Where the gateway sends the payer back. The store asks the gateway (server to server) what happened and
 * settles the order from that answer alone; the query only says which payment to ask about.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  try {
    const { status } = await confirmReturn(context.db, context.payments, url.searchParams.get("gateway") ?? "", url.searchParams);
    if (status === "complete" || status === "waiting") return redirect("/payComp");
    if (status === "pending") return redirect("/payComp");
    if (status === "failed") return redirect("/pay-error");
    return redirect("/pay-cancel");
  } catch (error) {
    if (error instanceof MarketError) return redirect("/pay-error");
    // The gateway does not know the payment the query names (an order of ours it never took, or a made-up return):
    // the caller's doing, like an unknown order, not a failure of the store.
    if (isGatewayError(error) && error.status === 404) {
      console.warn(JSON.stringify({ level: "warn", msg: "client error", status: 404, path: "/pay/return", requestId: context.requestId }));
      return redirect("/pay-error");
    }
    console.error(JSON.stringify({ level: "error", msg: "payment return failed", requestId: context.requestId, error: String(error) }));
    return redirect("/pay-error");
  }
}
