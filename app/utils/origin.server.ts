import type { AppLoadContext } from "@remix-run/node";

/**
 * The store's public origin (PUBLIC_URL, default http://localhost:PORT), for every address the store hands out:
 * gateway returns and webhooks, mail links, canonical URLs. Never taken from the request's Host header, which
 * the client chooses.
 */
export function publicOrigin(_request: Request, context: AppLoadContext): string {
  return context.env.PUBLIC_URL;
}
