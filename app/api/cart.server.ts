import { z } from "zod";
import { addToCart, countCart, listCart, newCartToken, removeFromCart } from "../market/cart.server";
import { CONTENT_TYPES } from "../market/catalog/detail.server";
import { addFavorites, listFavorites, removeFavorites } from "../market/interests.server";
import { itemCode } from "../utils/input.server";
import { readShopper } from "../utils/shopper.server";
import { readJson, requireMember } from "./caller.server";
import { fail, ok } from "./envelope.server";
import { apiMessage } from "./messages.server";
import type { ApiRoute } from "./router.server";

const itemType = z.enum(CONTENT_TYPES).optional();
/** Cart and favorites (spec section 7): members by authorizationToken, visitors by the ngt header. */
export const cartRoutes: ApiRoute[] = [
  {
    method: "GET",
    path: "carts/count",
    handler: async (call) => {
      const { viewer, ngt } = await readShopper(call.request, call.context);
      return ok({ cart_count: await countCart(call.context.db, { userId: viewer?.id ?? null, ngt }) });
    },
  },
  {
    method: "GET",
    path: "carts",
    handler: async (call) => {
      const type = itemType.parse(call.query.get("item_type") ?? undefined, { path: ["item_type"] });
      const { viewer, ngt } = await readShopper(call.request, call.context);
      const cart = await listCart(call.context.db, { userId: viewer?.id ?? null, ngt }, call.language, type);
      return ok({
        list: cart.lines,
        total_count: cart.lines.length,
        counts: cart.counts,
        amount: cart.amount,
        vat: cart.vat,
        total: cart.total,
      });
    },
  },
  {
    method: "POST",
    path: "carts",
    handler: async (call) => {
      const input = z
        .object({
          contents_list: z
            .array(
              z.object({
                item_code: itemCode,
                item_type: z.enum(CONTENT_TYPES).optional(),
                contents_file_type: z.coerce.number().int().min(0).max(9).optional(),
              }),
            )
            .min(1)
            .max(100),
        })
        .parse(await readJson(call));
      const { viewer, ngt } = await readShopper(call.request, call.context);
      const token = viewer ? null : (ngt ?? newCartToken());
      const result = await addToCart(
        call.context.db,
        { userId: viewer?.id ?? null, ngt: token },
        input.contents_list.map((i) => ({ code: i.item_code, levelFlag: i.contents_file_type, type: i.item_type })),
      );
      const payload = {
        state: result.code === "SUCCESS" ? "SUCCESS" : "ERROR",
        code: result.code,
        cart_count: result.cartCount,
        ngt: viewer ? undefined : token,
      };
      return result.code === "SUCCESS"
        ? ok(payload)
        : Response.json({ result: { code: 409, message: apiMessage(call.language, result.code) }, data: payload }, { status: 409 });
    },
  },
  {
    method: "DELETE",
    path: "carts",
    handler: async (call) => {
      const input = z.object({ cart_id: z.array(z.number().int().positive()).min(1).max(100) }).parse(await readJson(call));
      const { viewer, ngt } = await readShopper(call.request, call.context);
      if (!viewer && !ngt) return fail(401, apiMessage(call.language, "NGT_REQUIRED"), "NGT_REQUIRED");
      const owner = { userId: viewer?.id ?? null, ngt };
      const deleted = await removeFromCart(call.context.db, owner, input.cart_id);
      return ok({ state: "SUCCESS", deleted, cart_count: await countCart(call.context.db, owner) });
    },
  },
  {
    method: "GET",
    path: "interests",
    handler: async (call) => {
      const type = itemType.parse(call.query.get("item_type") ?? undefined, { path: ["item_type"] });
      const viewer = await requireMember(call);
      const result = await listFavorites(call.context.db, viewer.id, call.language, type);
      return ok({ list: result.list, total_count: result.list.length, counts: result.counts });
    },
  },
  {
    method: "POST",
    path: "interests",
    handler: async (call) => {
      const input = z
        .object({
          item_list: z.array(itemCode).min(1).max(100),
        })
        .parse(await readJson(call));
      const viewer = await requireMember(call);
      const added = await addFavorites(call.context.db, viewer.id, input.item_list);
      return ok({ state: "SUCCESS", added });
    },
  },
  {
    method: "DELETE",
    path: "interests",
    handler: async (call) => {
      const input = z.object({ interest_id: z.array(z.number().int().positive()).min(1).max(200) }).parse(await readJson(call));
      const viewer = await requireMember(call);
      return ok({ state: "SUCCESS", deleted: await removeFavorites(call.context.db, viewer.id, input.interest_id) });
    },
  },
];
