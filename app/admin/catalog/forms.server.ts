import { z } from "zod";
import { CONTENT_TYPES } from "../../market/catalog/detail.server";
import { CONTENT_STATUSES } from "../../market/catalog/manage.server";

export { parseContentForm } from "../../market/catalog/content-schema.server";

/** The catalog console's form schemas (a .server module, so zod stays out of the browser bundle). */

const blankToUndefined = (v: unknown) => (v === "" ? undefined : v);

export const catalogQuerySchema = z.object({
  type: z.preprocess(blankToUndefined, z.enum(CONTENT_TYPES).optional()).catch(undefined),
  status: z.preprocess(blankToUndefined, z.enum(CONTENT_STATUSES).optional()).catch(undefined),
  keyword: z.string().trim().max(100).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

export const itemTypeSchema = z.enum(CONTENT_TYPES);

export const statusSchema = z.object({
  intent: z.enum(["discontinue", "restore"]),
  reason: z.string().trim().max(500).optional(),
});

export const packageAddSchema = z.object({
  intent: z.literal("package-add"),
  code: z.string().trim().min(1).max(30),
});

export const packageRemoveSchema = z.object({
  intent: z.literal("package-remove"),
  contentId: z.coerce.number().int().positive().max(2_147_483_647),
});

export const idParam = z.coerce.number().int().positive().max(2_147_483_647);
