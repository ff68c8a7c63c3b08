import { type AppLoadContext, redirect } from "@remix-run/node";
import type { FlowState } from "../market/orders/flows.server";
import type { Viewer } from "../market/users/session.server";
import { requireViewer } from "./auth.server";
import { type PayState, readPay, requirePay } from "./pay-session.server";

export interface Checkout {
  pay: PayState;
  state: FlowState;
  /** The signed-in payer (null for a direct purchase by key, which needs no login). */
  payer: Viewer | null;
}

/**
 * The checkout in progress for a payment page: the order in the session (else 'session expired'), and its payer,
 * a signed-in member except for a direct purchase by key. A purchase request being written has its own pages.
 */
export async function readCheckout(request: Request, context: AppLoadContext): Promise<Checkout> {
  // With no checkout, a visitor is first asked to sign in (checkouts without a login start from the cart).
  if (!(await readPay(request, context))) await requireViewer(request, context);
  const pay = await requirePay(request, context);
  const d = pay.data;
  if (d.flow === "request") throw redirect(d.keyLicenseId ? "/request" : "/pay02");
  const payer = d.flow === "direct" ? null : await requireViewer(request, context);
  return {
    pay,
    payer,
    state: {
      flow: d.flow,
      items: pay.items,
      requestIds: d.requestIds,
      excluded: d.excluded,
      keyLicenseId: d.keyLicenseId,
      licenseId: d.licenseId,
      serial: d.serial,
      coupon: d.coupon,
      nonce: d.nonce,
    },
  };
}
