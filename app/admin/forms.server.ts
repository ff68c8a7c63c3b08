import { z } from "zod";
import { OPERATOR_ROLES } from "../market/operators/roles";

/** The console's form schemas (kept in a .server module so zod stays out of the browser bundle). */
export const operatorSignInSchema = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(200),
  next: z.string().max(500).optional(),
});

export const operatorCreateSchema = z.object({
  intent: z.literal("create"),
  email: z.string().max(254),
  name: z.string().max(200),
  password: z.string().max(200),
  role: z.string().max(20),
});

export const operatorUpdateSchema = z.object({
  intent: z.literal("update"),
  id: z.coerce.number().int().positive(),
  role: z.enum(OPERATOR_ROLES),
  active: z.literal("1").optional(),
});

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .or(z.literal("").transform(() => undefined));
const short = z.string().trim().max(100).optional();

export const auditQuerySchema = z.object({
  operator: short,
  action: short,
  target: short,
  targetId: short,
  from: day,
  to: day,
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** Form fields as an object (the first value of each name). */
export function formObject(form: FormData | URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !(k in out)) out[k] = v;
  return out;
}

/** A Seoul calendar day as the instant it starts (the console's dates are Korea's). */
export function seoulDayStart(day: string): string {
  return new Date(`${day}T00:00:00+09:00`).toISOString();
}
export function seoulDayEnd(day: string): string {
  return new Date(new Date(`${day}T00:00:00+09:00`).getTime() + 86_400_000).toISOString();
}
