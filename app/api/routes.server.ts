import { sql } from "kysely";
import { authRoutes } from "./auth.server";
import { cartRoutes } from "./cart.server";
import { catalogRoutes } from "./catalog.server";
import { downloadRoutes } from "./downloads.server";
import { ok } from "./envelope.server";
import { eventRoutes } from "./events.server";
import { noticeRoutes } from "./notices.server";
import { orderRoutes } from "./orders.server";
import { requestRoutes } from "./requests.server";
import type { ApiRoute } from "./router.server";
import { searchRoutes } from "./search.server";
import { supportRoutes } from "./support.server";
import { userRoutes } from "./users.server";

/** The section-7 route table. Each handler parses its input and calls one domain function. */
export const routes: ApiRoute[] = [
  {
    method: "GET",
    path: "health",
    handler: async ({ context }) => {
      await sql`select 1`.execute(context.db);
      return ok({ state: "SUCCESS" });
    },
  },
  ...catalogRoutes,
  ...searchRoutes,
  ...cartRoutes,
  ...userRoutes,
  ...orderRoutes,
  ...requestRoutes,
  ...authRoutes,
  ...downloadRoutes,
  ...noticeRoutes,
  ...eventRoutes,
  ...supportRoutes,
];
