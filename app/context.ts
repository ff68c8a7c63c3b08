import type { DB } from "./db/db.server";
import type { Locale } from "./i18n/config";
import type { Gateways } from "./integrations/payments/index.server";
import type { Env } from "./utils/env.server";

/** What every loader and action receives as `context`, built once per request in server.ts. */
export interface AppContext {
  db: DB;
  env: Env;
  locale: Locale;
  cspNonce: string;
  requestId: string;
  clientIp: string;
  /** The payment gateways, built once at start-up. */
  payments: Gateways;
}

declare module "@remix-run/node" {
  interface AppLoadContext extends AppContext {}
}
