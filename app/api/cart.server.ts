import { addToCart, type CartLine, countCart, listCart, newCartToken, removeFromCart } from "../market/cart.server";
import { CART_OUTCOMES } from "../market/cart-outcomes";
import { CONTENT_TYPES } from "../market/catalog/detail.server";
import { addFavorites, listFavorites, removeFavorites } from "../market/interests.server";
import { USE_PERIOD_DAYS } from "../market/rules";
import { itemCode } from "../utils/input.server";
import { readShopper } from "../utils/shopper.server";
import { requireMember } from "./caller.server";
import { Reply, route } from "./define";
import { fail } from "./envelope.server";
import { apiMessage } from "./messages.server";
import { cartLine, contentCard, countsByType, success } from "./wire";
import { z } from "./zod";

const itemType = z.object({ item_type: z.enum(CONTENT_TYPES).optional() });

/** A cart line in the spec's names (section 3): cart_id, item_code, item_type, contents_file_type, quantity, price, valid days. */
const wireLine = ({ code, type, levelFlag, ...line }: CartLine) => ({
  ...line,
  itemCode: code,
  itemType: type,
  contentsFileType: levelFlag,
  quantity: 1,
  validDays: USE_PERIOD_DAYS,
});

const added = z.object({
  state: z.enum(["SUCCESS", "ERROR"]),
  code: z.enum(CART_OUTCOMES).openapi({ description: "The add's outcome (spec section 8: SUCCESS, ALREADY_HAVE_ITEM, EXCEED_CART...)." }),
  cart_count: z.number().int(),
  ngt: z.string().optional().openapi({ description: "A visitor's anonymous cart token: send it back as the ngt header." }),
});

const tag = "Cart and favorites";
const shopper = ["authorizationToken", "ngt"] as const;

/** Cart and favorites (spec section 7): members by authorizationToken, visitors by the ngt header. */
export const cartRoutes = [
  route({
    method: "GET",
    path: "carts/count",
    tag,
    summary: "How many lines the cart holds",
    headers: [...shopper],
    answer: z.object({ cart_count: z.number().int() }),
    handler: async (call) => {
      const { viewer, ngt } = await readShopper(call.request, call.context);
      return { cartCount: await countCart(call.context.db, { userId: viewer?.id ?? null, ngt }) };
    },
  }),
  route({
    method: "GET",
    path: "carts",
    tag,
    summary: "The cart's lines and totals (of the payable lines)",
    headers: [...shopper],
    query: itemType,
    answer: z.object({
      list: z.array(cartLine),
      total_count: z.number().int(),
      counts: countsByType,
      amount: z.number(),
      vat: z.number(),
      total: z.number(),
    }),
    handler: async (call, input) => {
      const type = input.query().item_type;
      const { viewer, ngt } = await readShopper(call.request, call.context);
      const cart = await listCart(call.context.db, { userId: viewer?.id ?? null, ngt }, call.language, type);
      return {
        list: cart.lines.map(wireLine),
        totalCount: cart.lines.length,
        counts: cart.counts,
        amount: cart.amount,
        vat: cart.vat,
        total: cart.total,
      };
    },
  }),
  route({
    method: "POST",
    path: "carts",
    tag,
    summary: "Adds items to the cart (a visitor without ngt gets one in the answer)",
    headers: [...shopper],
    body: z.object({
      contents_list: z
        .array(
          z.object({
            item_code: itemCode,
            item_type: z.enum(CONTENT_TYPES).optional(),
            contents_file_type: z.coerce.number().int().min(0).max(9).optional().openapi({ description: "The line's level_flag." }),
          }),
        )
        .min(1)
        .max(100),
    }),
    answer: added,
    otherAnswers: { 409: { description: "Not added (already in the cart, cart full...)", data: added } },
    handler: async (call, input) => {
      const body = await input.body();
      const { viewer, ngt } = await readShopper(call.request, call.context);
      const token = viewer ? null : (ngt ?? newCartToken());
      const result = await addToCart(
        call.context.db,
        { userId: viewer?.id ?? null, ngt: token },
        body.contents_list.map((i) => ({ code: i.item_code, levelFlag: i.contents_file_type, type: i.item_type })),
      );
      const data = {
        state: result.code === "SUCCESS" ? "SUCCESS" : "ERROR",
        code: result.code,
        cartCount: result.cartCount,
        ngt: viewer ? undefined : token,
      };
      return result.code === "SUCCESS" ? data : new Reply(data, { status: 409, message: apiMessage(call.language, result.code) });
    },
  }),
  route({
    method: "DELETE",
    path: "carts",
    tag,
    summary: "Removes cart lines by cart_id",
    headers: [...shopper],
    body: z.object({ cart_id: z.array(z.number().int().positive()).min(1).max(100) }),
    answer: z.object({ state: success, deleted: z.number().int(), cart_count: z.number().int() }),
    handler: async (call, input) => {
      const body = await input.body();
      const { viewer, ngt } = await readShopper(call.request, call.context);
      if (!viewer && !ngt) return fail(401, apiMessage(call.language, "NGT_REQUIRED"), "NGT_REQUIRED");
      const owner = { userId: viewer?.id ?? null, ngt };
      const deleted = await removeFromCart(call.context.db, owner, body.cart_id);
      return { state: "SUCCESS", deleted, cartCount: await countCart(call.context.db, owner) };
    },
  }),
  route({
    method: "GET",
    path: "interests",
    tag,
    summary: "The member's favorites",
    headers: ["authorizationToken"],
    query: itemType,
    answer: z.object({
      list: z.array(contentCard.extend({ interest_id: z.number().int() })),
      total_count: z.number().int(),
      counts: countsByType,
    }),
    handler: async (call, input) => {
      const type = input.query().item_type;
      const viewer = await requireMember(call);
      const result = await listFavorites(call.context.db, viewer.id, call.language, type);
      return { list: result.list, totalCount: result.list.length, counts: result.counts };
    },
  }),
  route({
    method: "POST",
    path: "interests",
    tag,
    summary: "Adds items to favorites by item code",
    headers: ["authorizationToken"],
    body: z.object({ item_list: z.array(itemCode).min(1).max(100) }),
    answer: z.object({ state: success, added: z.number().int() }),
    handler: async (call, input) => {
      const body = await input.body();
      const viewer = await requireMember(call);
      return { state: "SUCCESS", added: await addFavorites(call.context.db, viewer.id, body.item_list) };
    },
  }),
  route({
    method: "DELETE",
    path: "interests",
    tag,
    summary: "Removes favorites by interest_id",
    headers: ["authorizationToken"],
    body: z.object({ interest_id: z.array(z.number().int().positive()).min(1).max(200) }),
    answer: z.object({ state: success, deleted: z.number().int() }),
    handler: async (call, input) => {
      const body = await input.body();
      const viewer = await requireMember(call);
      return { state: "SUCCESS", deleted: await removeFavorites(call.context.db, viewer.id, body.interest_id) };
    },
  }),
];
