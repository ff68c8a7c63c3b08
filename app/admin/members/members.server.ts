import { z } from "zod";
import { WITHDRAW_REASONS } from "../../market/users/withdraw-reasons";

/** /admin/members: the search (e-mail, nickname or licence key) and the page. */
export const memberSearchSchema = z.object({
  q: z.string().trim().max(100).catch(""),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** /admin/members/:id */
export const memberIdSchema = z.coerce.number().int().positive().max(2_147_483_647);

/**
 * Withdrawing a member on their request: the member's own confirmations (deletion and the loss of active contents),
 * the reason they gave, and the operator's reason for the audit log.
 */
export const memberWithdrawSchema = z.object({
  intent: z.literal("withdraw"),
  confirmDelete: z.literal("on", { message: "confirm" }),
  confirmLoss: z.literal("on", { message: "confirm" }),
  code: z.enum(WITHDRAW_REASONS, { message: "code" }),
  reason: z.string().trim().min(1, "reason").max(500, "reason"),
});

/** The message key of the first problem (`admin.members.withdraw.problems.<key>`). */
export function withdrawProblem(error: z.ZodError): string {
  const message = error.issues[0]?.message ?? "";
  return ["confirm", "code", "reason"].includes(message) ? message : "invalid";
}
