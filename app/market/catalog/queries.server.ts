import { z } from "zod";
import { itemCode } from "../../utils/input.server";
import { CART_OUTCOMES } from "../cart-outcomes";
import { FONT_PREVIEW_MAX } from "../rules";
import { CONTENT_TYPES } from "./detail.server";

/*
 * Query schemas of the catalog pages. They live in a .server module: a route module that imports zod itself ships
 * zod to the browser (a bare import survives tree-shaking), about 14 KB gzipped on every catalog page.
 */

/** /contents/{type}?code=...&text=... (the font preview text is cut to 100 characters, whole characters). */
export const detailQuery = z.object({
  code: itemCode,
  text: z
    .string()
    .optional()
    .transform((v) => (v === undefined ? undefined : [...v].slice(0, FONT_PREVIEW_MAX).join(""))),
});

/** ?page= of a paged list: 1 when absent or not a page number. */
export const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(10_000).catch(1) });

/** /list/{space}/{id}?page=&sort= */
export const listQuery = pageQuery.extend({ sort: z.enum(["popular", "recent"]).catch("popular") });

/** The cart outcome a no-JavaScript add carries back in the address. */
export const cartOutcomeParam = z.enum(CART_OUTCOMES).nullable().catch(null);

/** ?type= narrowing a list of items to one content type; anything else shows them all. */
export const contentTypeParam = z.enum(CONTENT_TYPES).optional().catch(undefined);
