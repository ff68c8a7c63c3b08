import { CONTENT_TYPES } from "../market/catalog/kinds";
import { SKIP_REASONS } from "../market/downloads/rules";
import { PASS_STATES } from "../market/pass-status";
import { BPM_BANDS } from "../market/rules";
import { z } from "./zod";

/*
 * The wire's shared shapes (docs/api.md): the names the spec gives them (section 3 and 7), in snake_case. Each route's
 * answer schema is built from these; the router parses every answer with it and the OpenAPI document
 * (/api/v1/openapi.json) is generated from the same schemas.
 */

export const currency = z.enum(["KRW", "USD"]);
export const contentType = z.enum(CONTENT_TYPES);
export const state = z.enum(["SUCCESS", "ERROR"]).openapi({ description: "The spec's outcome marker (data.state)." });
export const success = z.literal("SUCCESS").openapi({ description: "The spec's outcome marker (data.state)." });
const instant = z.string().openapi({ description: "An instant, ISO 8601 in UTC." });
export const at = instant;
export const named = z.object({ id: z.number().int(), name: z.string() });

export const contentCard = z
  .object({
    id: z.number().int(),
    code: z.string().openapi({ description: "The item code (e.g. VI0000012): the spec's item_code." }),
    type: contentType,
    sub: z.number().int().nullable().openapi({ description: "contents_type_sub (3001 sound effect, 3002 BGM, 3003 AI BGM)." }),
    title: z.string(),
    thumb: z.string().nullable(),
    preview: z.string().nullable(),
    peaks: z.string().nullable(),
    price_type: z.enum(["paid", "free", "benefit"]),
    price: z.number().openapi({ description: "What it sells for, minor units of currency, VAT excluded." }),
    list_price: z.number(),
    currency,
    duration_ms: z.number().int().nullable(),
    bpm: z.number().nullable(),
    font_family: z.string().nullable(),
    discontinued: z.boolean(),
    members: z.object({ count: z.number().int(), left: z.number().int() }).nullable(),
  })
  .openapi("ContentCard");

export const contentDetail = contentCard
  .extend({
    description: z.string(),
    tags: z.array(z.string()),
    category: named.nullable(),
    genre: named.nullable(),
    mood: named.nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    file_size: z.number().int().nullable(),
    // A nullable enum as a union: zod-to-openapi 7.3 writes `.nullable()` of an enum without null in its enum list.
    bpm_band: z.union([z.enum(BPM_BANDS.map((b) => b.code) as [string, ...string[]]), z.null()]),
    released_at: z.string(),
    requirement: z.enum(["purchase", "license_and_account", "paid_purchase"]),
    bundle: z.array(contentCard),
  })
  .openapi("ContentDetail");

export const list = <T extends z.ZodTypeAny>(item: T) => z.object({ list: z.array(item), total_count: z.number().int() });

export const countsByType = z.object(
  Object.fromEntries(CONTENT_TYPES.map((t) => [t, z.number().int()])) as Record<(typeof CONTENT_TYPES)[number], z.ZodNumber>,
);

/** A cart line (spec section 3): cart_id, item_code, item_type, level_flag sent as contents_file_type, quantity, price, valid days. */
export const cartLine = contentCard
  .omit({ code: true, type: true })
  .extend({
    cart_id: z.number().int(),
    item_code: z.string(),
    item_type: contentType,
    contents_file_type: z.number().int().openapi({ description: "The line's level_flag." }),
    quantity: z.number().int(),
    valid_days: z.number().int().openapi({ description: "Days the item can be used after payment." }),
    added_at: instant,
  })
  .openapi("CartLine");

export const grantedFile = z.object({
  content_id: z.number().int(),
  code: z.string(),
  title: z.string(),
  filename: z.string(),
  url: z.string(),
  deducted: z.boolean(),
});

export const downloadResult = z
  .object({
    state,
    granted: z.array(grantedFile),
    skipped: z.array(z.object({ content_id: z.number().int(), reason: z.enum(SKIP_REASONS) })),
    messages: z.array(z.enum(["expired_excluded", "nothing_available", "no_remaining", "discontinued"])),
  })
  .openapi("DownloadResult");

export const requestStatus = z
  .enum(["waiting", "expired", "paid"])
  .openapi({ description: "A purchase request's status (spec section 4: waiting for payment, expired, paid)." });

export const requestSummary = z
  .object({
    request_id: z.number().int(),
    request_no: z.string(),
    request_email: z.string(),
    message: z.string(),
    license_id: z.string().openapi({ description: "The product key the request was made with." }),
    license_alias: z.string().nullable(),
    created_at: z.string(),
    expires_at: z.string(),
    paid_at: z.string().nullable(),
    status: requestStatus,
    currency,
    total: z.number(),
    quantity: z.number().int(),
    contents: z.string(),
  })
  .openapi("PurchaseRequest");

export const requestDetail = requestSummary
  .extend({
    items: z.array(
      z.object({
        content_id: z.number().int(),
        item_code: z.string(),
        item_type: z.string(),
        title: z.string(),
        poster: z.string().nullable(),
        quoted_price: z.number(),
        payable_price: z.number().nullable(),
        discontinued: z.boolean(),
        repriced: z.boolean(),
      }),
    ),
    payable: z.object({ amount: z.number(), vat: z.number(), total: z.number(), quantity: z.number().int() }),
    order_no: z.string().nullable(),
    organization: z.string().nullable(),
  })
  .openapi("PurchaseRequestDetail");

export const orderRow = z
  .object({
    id: z.number().int(),
    order_no: z.string(),
    paid_at: z.string().nullable(),
    created_at: z.string(),
    name: z.string(),
    status: z.string(),
    method: z.string().nullable(),
    currency,
    total: z.number(),
    quantity: z.number().int(),
    purchase_category: z.string(),
  })
  .openapi("Payment");

export const orderDetail = orderRow
  .extend({
    amount: z.number(),
    discount: z.number(),
    vat: z.number(),
    paid_amount: z.number(),
    cancel_quantity: z.number().int(),
    cancel_amount: z.number(),
    refund_deduction: z.number(),
    message: z.string().nullable(),
    license: z.object({ id: z.number().int(), serial: z.string(), alias: z.string().nullable() }).nullable(),
    vbank: z.object({ bank: z.string(), account: z.string(), holder: z.string().nullable(), due_at: z.string().nullable() }).nullable(),
    pending_reason: z.string().nullable(),
    lines: z.array(
      z.object({
        id: z.number().int(),
        item_type: z.string(),
        title: z.string(),
        code: z.string().nullable(),
        pass_group: z.string().nullable(),
        pass_count: z.number().int().nullable(),
        unit: z.number(),
        discount: z.number(),
        vat: z.number(),
        total: z.number(),
        status: z.string(),
        used: z.boolean(),
        expires_at: z.string().nullable().openapi({
          description: "When the line's period of use ends (a pass line: the pass's end); null before payment and when cancelled.",
        }),
        valid_days: z.number().int().openapi({ description: "The line's period of use in days from payment." }),
        refund_amount: z.number(),
        cancellable: z.boolean(),
        refusal: z.string().nullable(),
      }),
    ),
    cancellable: z.boolean(),
    refusal: z.string().nullable(),
  })
  .openapi("PaymentDetail");

export const passRow = z
  .object({
    id: z.number().int(),
    group: z.string(),
    remaining: z.number().int(),
    total: z.number().int(),
    status: z.enum(PASS_STATES).openapi({ description: "passState: used_up is 0 left while still valid; expired is past its end." }),
    purchased_at: z.string(),
    expires_at: z.string(),
    valid_days: z.number().int(),
    license: z.string().nullable(),
  })
  .openapi("Pass");

export const memberLicense = z
  .object({
    id: z.number().int(),
    serial: z.string().openapi({ description: "The product key (the license_id of the headers and bodies)." }),
    alias: z.string().nullable(),
    email: z.string(),
    status: z.string(),
    license_type: z.string(),
    pc_name: z.string().nullable(),
    valid_until: z.string().nullable(),
    remaining_days: z.number().int().nullable(),
    sort_order: z.number().int(),
  })
  .openapi("Licence");

/** The answer envelope around `data` (spec section 7). */
export const envelope = (data: z.ZodTypeAny) => z.object({ result: z.object({ code: z.number().int(), message: z.string() }), data });

/** A refusal's envelope: result.code and result.message, data.state ERROR and the error's code. */
export const errorEnvelope = envelope(z.object({ state: z.literal("ERROR"), error: z.string().optional() })).openapi("Error");
