import { z } from "zod";
import { cartActionSchema, idList, itemCode } from "./input.server";

/*
 * The cart form's intents added by issue 24 (points 3 and 4), on top of the store's cart schema: "Buy now" from an
 * item's page, the confirmed "Delete selected", and dropping the lines a licence already holds.
 */

/** Buy this one item now: straight to checkout (/pay01), the cart left as it was. */
const buyNow = z.object({ intent: z.literal("buyNow"), code: itemCode, redirectTo: z.string().optional() });
/** "Delete selected" after its confirmation listed the lines. */
const removeConfirmed = z.object({ intent: z.literal("removeConfirmed"), cart_id: idList(), pass_line: idList() });
/** "Remove these": the lines whose items a licence of the member already holds (the overlap notice). */
const removeHeld = z.object({ intent: z.literal("removeHeld"), held_id: idList() });

export const cartFormSchema = z.discriminatedUnion("intent", [...cartActionSchema.options, buyNow, removeConfirmed, removeHeld]);
export type CartForm = z.infer<typeof cartFormSchema>;
