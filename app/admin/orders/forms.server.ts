import { z } from "zod";
import { PAY_METHODS } from "../../integrations/payments/gateway";

/** The orders section's form and query schemas (zod stays in .server modules, out of the browser bundle). */
const ORDER_STATUSES = ["pending", "waiting", "complete", "cancelled", "partially_cancelled", "failed"] as const;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .or(z.literal("").transform(() => undefined));
const short = z.string().trim().max(100).optional();

/** The search; a value out of its set is a 400 with the form kept (never a 500). */
export const orderSearchSchema = z.object({
  orderNo: short,
  email: short,
  licenseKey: short,
  method: z
    .enum(PAY_METHODS)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  status: z
    .enum(ORDER_STATUSES)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  from: day,
  to: day,
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

export const pageSchema = z.coerce.number().int().min(1).max(10_000).catch(1);

export const orderIdSchema = z.coerce.number().int().positive().max(2_147_483_647);

/** Cancel or refund on the customer's behalf: the lines (at least one, chosen), a reason, the override. */
export const operatorCancelSchema = z
  .object({
    intent: z.literal("cancel"),
    line: z.array(z.coerce.number().int().positive().max(2_147_483_647)).min(1, "lines").max(200, "lines"),
    reason: z.string().trim().min(2, "reason").max(200, "reason"),
    override: z.literal("1").optional(),
    bank: z.string().trim().max(60).optional().default(""),
    account: z.string().trim().max(60).optional().default(""),
    holder: z.string().trim().max(60).optional().default(""),
  })
  .refine((v) => (v.bank === "" && v.account === "" && v.holder === "") || (v.bank && /^[\d-]{4,40}$/.test(v.account) && v.holder), {
    message: "account",
  });

/** A row's button on the deposits and reconciliation pages. */
export const orderActionSchema = z.object({
  intent: z.enum(["deposit", "reconcile"]),
  id: orderIdSchema,
});
