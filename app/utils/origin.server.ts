import type { AppLoadContext } from "@remix-run/node";
import { isTestMode } from "./test-mode.server";

/**
 * The store's public origin (PUBLIC_URL, default http://localhost:PORT), for every address the store hands out:
 * gateway returns and webhooks, mail links, canonical URLs. Never taken from the request's Host header, which
 * the client chooses.
 */
export function publicOrigin(_request: Request, context: AppLoadContext): string {
  return context.env.PUBLIC_URL;
}

/** localhost, 127.0.0.0/8 or [::1]: a name that can only mean the machine the browser runs on. */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === "localhost" || h === "[::1]" || /^127(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(h);
}

/**
 * Where a payment gateway sends the payer back (its return and cancel addresses; issue 26, point 9): the public
 * origin, except in test mode with PUBLIC_URL left unset, where a visitor who opened the store on a loopback
 * address (127.0.0.1:3000, [::1]:3000, localhost:3000) comes back to the host they came from, so their cookies go
 * with them. Any other Host header is ignored (a client chooses it), and so is every Host once PUBLIC_URL is set or
 * the store takes real payments.
 */
export function returnOrigin(request: Request, context: Pick<AppLoadContext, "env" | "payments">): string {
  const base = context.env.PUBLIC_URL;
  if (context.env.publicUrlConfigured || !isTestMode(context)) return base;
  const host = request.headers.get("host");
  if (!host || !/^[A-Za-z0-9.\-[\]:]+$/.test(host)) return base;
  const url = URL.parse(`http://${host}`);
  if (!url || url.host !== host.toLowerCase() || !isLoopbackHostname(url.hostname)) return base;
  return `${new URL(base).protocol}//${url.host}`;
}
