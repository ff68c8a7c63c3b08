import { type AppLoadContext, redirect } from "@remix-run/node";
import { MarketError } from "../market/errors";
import { type CurrencyGroup, checkSelectionPayable, MixedCurrencies } from "../market/requests/selection.server";
import { startPay } from "./pay-session.server";

/** Purchase requests are sent to business representative accounts (spec section 6: user_type 2). */
export const isRepresentative = (viewer: { userType: number }) => viewer.userType === 2;

/**
 * Starts paying the representative's chosen purchase requests (the list's "Pay selected", the detail's "Pay"): the
 * domain checks them first (paid, expired, other keys, other currencies refused with the spec's messages), then the
 * checkout goes into the pay cookie (flow pay_requests) and the payment steps begin at /pay01. A refusal answers
 * the message key to show, under pay.error; several currencies also answer the requests of each (`groups`).
 */
export async function payRequests(
  context: AppLoadContext,
  ownerUserId: number,
  requestIds: number[],
): Promise<Response | { error: string; status: number; groups?: CurrencyGroup[] }> {
  try {
    await checkSelectionPayable(context.db, ownerUserId, requestIds, context.locale);
  } catch (error) {
    // Several currencies: the page names the requests of each and offers one payment per currency.
    if (error instanceof MixedCurrencies) return { error: `pay.error.${error.code}`, status: error.status, groups: error.groups };
    if (error instanceof MarketError) return { error: `pay.error.${error.code}`, status: error.status };
    throw error;
  }
  const cookie = await startPay(context, [], { flow: "pay_requests", requestIds });
  return redirect("/pay01", { headers: { "Set-Cookie": cookie } });
}
