import { sql } from "kysely";
import { publicOrigin } from "../utils/origin.server";
import { authRoutes } from "./auth.server";
import { cartRoutes } from "./cart.server";
import { catalogRoutes } from "./catalog.server";
import { type ApiRoute, route } from "./define";
import { downloadRoutes } from "./downloads.server";
import { eventRoutes } from "./events.server";
import { noticeRoutes } from "./notices.server";
import { openApiDocument } from "./openapi.server";
import { orderRoutes } from "./orders.server";
import { requestRoutes } from "./requests.server";
import { searchRoutes } from "./search.server";
import { supportRoutes } from "./support.server";
import { userRoutes } from "./users.server";
import { success } from "./wire";
import { z } from "./zod";

let reference: { origin: string; document: object } | null = null;

/** The section-7 route table. Each handler parses its input and calls one domain function. */
export const routes: ApiRoute[] = [
  route({
    method: "GET",
    path: "health",
    tag: "Service",
    summary: "Whether the store and its database answer",
    answer: z.object({ state: success }),
    handler: async ({ context }) => {
      await sql`select 1`.execute(context.db);
      return { state: "SUCCESS" };
    },
  }),
  route({
    method: "GET",
    path: "openapi.json",
    tag: "Service",
    summary: "This reference (OpenAPI 3.1), generated from the schemas the API checks and shapes with",
    answer: { binary: "application/json" },
    handler: async (call) => {
      const origin = publicOrigin(call.request, call.context);
      if (reference?.origin !== origin) reference = { origin, document: openApiDocument(routes, origin) };
      return Response.json(reference.document, { headers: { "Cache-Control": "public, max-age=300" } });
    },
  }),
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
