import { z } from "zod";

/*
 * Input schemas of the store's forms. A .server module: a route module that imports zod itself ships it to
 * the browser (see app/market/catalog/queries.server.ts).
 */

/** A form's repeated id field (`item=3&item=7`, or one value) as positive integers, at most `max` of them. */
export const idList = (max = 100) =>
  z.preprocess((v) => (Array.isArray(v) ? v : v === undefined ? [] : [v]), z.array(z.coerce.number().int().positive()).max(max));

/** The form of an item code: two letters of its type and seven digits (VI0000001). */
export const ITEM_CODE = /^[A-Z]{2}\d{7}$/;
/** An item code from an address, a form or an API body. */
export const itemCode = z.string().regex(ITEM_CODE, "an item code like VI0000001");

/** A positive integer id from an address or a form. */
export const positiveId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The ids a form chose under `name`; a malformed choice counts as none. */
export function chosenIds(form: FormData, name: string, max = 100): number[] {
  const parsed = idList(max).safeParse(form.getAll(name));
  return parsed.success ? parsed.data : [];
}

/** "Add this item" (the cart and the favorites forms): its code, where to go back to, and whether JS sent it. */
const addItem = z.object({
  intent: z.literal("add"),
  code: itemCode,
  redirectTo: z.string().optional(),
  js: z.string().optional(),
});

/** One schema per intent of the cart form (a discriminated union, Hydrogen-style intent switch). */
export const cartActionSchema = z.discriminatedUnion("intent", [
  addItem,
  z.object({ intent: z.literal("remove"), cart_id: idList(), pass_line: idList() }),
  z.object({ intent: z.literal("favorite"), cart_id: idList() }),
  z.object({ intent: z.literal("buy"), cart_id: idList(), pass_line: idList() }),
  /** A key-only user: ask the business representative to pay (request), or buy with the key (direct). */
  z.object({ intent: z.literal("request"), cart_id: idList() }),
  z.object({ intent: z.literal("direct"), cart_id: idList() }),
  z.object({
    intent: z.literal("addPass"),
    pass: z.coerce.number().int().positive(),
    redirectTo: z.string().optional(),
    js: z.string().optional(),
  }),
]);

/** The favorites form (/mypage/interest): add one item, remove or move chosen ones to the cart. */
export const favoritesActionSchema = z.discriminatedUnion("intent", [
  addItem,
  z.object({ intent: z.literal("remove"), interest_id: idList(200) }),
  z.object({ intent: z.literal("cart"), interest_id: idList(200) }),
]);

/** Cancelling some or all lines of a payment (/mypage/pay/{id}); refund account fields for virtual accounts. */
export const cancelOrderSchema = z.object({
  line: idList().pipe(z.array(z.number()).min(1, "orders.selectFirst")),
  reason: z.string().trim().min(1, "orders.reasonRequired").max(200),
  bank: z.string().trim().max(40).optional(),
  account: z.string().trim().max(40).optional(),
  holder: z.string().trim().max(40).optional(),
});

/** The representative's purchase request forms (/mypage/purchase and its detail): pay or delete the chosen requests. */
export const purchaseRequestsActionSchema = z.object({
  intent: z.enum(["pay", "delete"]),
  request: idList().pipe(z.array(z.number()).min(1, "purchase.nothingSelected")),
});

/**
 * A page number from the address: 1 when missing or unreadable, never past `max` (a number too large for the
 * database, such as ?page=99999999999999999999, is a client's mistake, not a server error).
 */
export function pageNumber(raw: string | null | undefined, max = 10_000): number {
  const n = Number.parseInt(raw ?? "1", 10);
  return Number.isSafeInteger(n) ? Math.max(1, Math.min(max, n)) : 1;
}

/** The key lookup of the business flows: a licence key and its licensing e-mail (spec section 5). */
export const keyLookupSchema = z.object({
  serial: z.string().trim().min(1, "request.error.serialRequired").max(64, "pay.error.KEY_NOT_FOUND"),
  email: z.string().trim().min(1, "request.error.emailRequired").max(254).email("request.error.emailInvalid"),
});

/** The purchase-request form: the requester's e-mail, and a message naming the company and the requester. */
export const requestFormSchema = z.object({
  request_email: z.string().trim().min(1, "request.error.emailRequired").max(254).email("request.error.emailInvalid"),
  message: z.string().trim().min(1, "request.error.messageRequired").max(100, "request.error.messageTooLong"),
});

/** A form's errors by field: the first message of each (a blank field says it is required, not that it is invalid). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[String(issue.path[0])] ??= issue.message;
  return out;
}
