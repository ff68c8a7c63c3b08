import type { DB } from "./db/db.server";
import type { Locale } from "./i18n/config";
import type { Gateways } from "./integrations/payments/index.server";
import type { Storage } from "./integrations/storage/storage";
import type { Env } from "./utils/env.server";
import type { Header, Shopper } from "./utils/shopper.server";

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
  /** Where files live (local disk under DATA_DIR, or STORAGE_URL's object store), built once at start-up. */
  storage: Storage;
  /**
   * Set by the server for a page rendered to be shared by the shoppers it is the same for (app/utils/
   * shared-pages.server.ts): what readShopper and readHeader answer during that render, the nickname a hole.
   */
  sharedPage?: { shopper: Shopper; header: Header };
}

declare module "@remix-run/node" {
  interface AppLoadContext extends AppContext {}
}
