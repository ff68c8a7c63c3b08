import { data } from "@remix-run/node";
import { MarketError } from "../../market/errors";

/**
 * Runs a save; a refusal of the domain that the form can explain (a coupon code taken, a bad period...) comes back
 * as `{ refused: code }` with its status, so the page keeps what was typed. Anything else goes on (to domainCall).
 */
export async function formRefusal<T>(fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string; status: number }> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    if (error instanceof MarketError && error.status < 500 && error.status !== 404 && error.status !== 403)
      return {
        ok: false,
        code:
          error.code === "NOTICE_INVALID" || error.code === "EVENT_INVALID" || error.code === "BANNER_INVALID" ? error.message : error.code,
        status: error.status,
      };
    throw error;
  }
}

/** A 400 answer with the values typed and the problem's key. */
export const badInput = <V>(values: V, problem: string, status = 400) =>
  data({ ok: false as const, values, problem, preview: null }, { status });
