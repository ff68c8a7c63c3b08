import { domainCall } from "../guard.server";

/** A console action's domain refusal as the form shows it: the status and the domain's code. */
export type Refusal = { refused: true; status: number; code: string };

/**
 * Runs the domain call through `domainCall`; a refusal (a MarketError, which domainCall turns into a 4xx/5xx
 * answer) comes back as data so the page re-renders its form with the message instead of the error page.
 */
export async function attempt<T>(fn: () => Promise<T>): Promise<{ refused: false; value: T } | Refusal> {
  try {
    return { refused: false, value: await domainCall(fn) };
  } catch (error) {
    const e = error as { type?: string; data?: { code?: unknown }; init?: { status?: number } | null };
    if (e && e.type === "DataWithResponseInit" && typeof e.data?.code === "string")
      return { refused: true, status: e.init?.status ?? 409, code: e.data.code };
    throw error;
  }
}

/** The refusal codes the orders pages have a sentence for; any other shows the generic one. */
export const KNOWN_REFUSALS = [
  "REFUND_WINDOW",
  "REFUND_NOT_PAID",
  "REFUND_NOTHING_SELECTED",
  "REFUND_ALREADY_CANCELLED",
  "REFUND_DOWNLOADED",
  "REFUND_BENEFIT_DOWNLOADED",
  "REFUND_PHONE_PARTIAL",
  "REFUND_ACCOUNT_REQUIRED",
  "REFUND_GATEWAY",
  "REASON_REQUIRED",
  "ORDER_NOT_FOUND",
  "GATEWAY_UNAVAILABLE",
  "DEPOSIT_SANDBOX_ONLY",
  "DEPOSIT_NOT_WAITING",
];

export const refusalKey = (code: string) => (KNOWN_REFUSALS.includes(code) ? code : "other");
