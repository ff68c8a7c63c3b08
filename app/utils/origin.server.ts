import type { AppLoadContext } from "@remix-run/node";

/** The store's public origin (PUBLIC_URL, else the request's), for addresses handed to outside services. */
export function publicOrigin(request: Request, context: AppLoadContext): string {
  return (context.env.PUBLIC_URL ?? new URL(request.url).origin).replace(/\/$/, "");
}
