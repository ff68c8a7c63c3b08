import type { AppLoadContext } from "@remix-run/node";

/**
 * Whether the store runs in test mode: payments go through the built-in sandbox gateway (PAYMENT_GATEWAY is not
 * live). The storefront's test-mode banner and the test events (testYn=Y) follow it.
 */
export function isTestMode(context: Pick<AppLoadContext, "env" | "payments">): boolean {
  return context.env.PAYMENT_GATEWAY !== "live" && Boolean(context.payments.sandbox);
}
