import { z } from "zod";
import { INQUIRY_ATTACHMENT_MAX_BYTES, INQUIRY_DESCRIPTION_MAX } from "./rules";

export const SUPPORT_CATEGORIES = ["purchase", "payment", "refund", "download", "license", "account", "other"] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];

/**
 * The 1:1 inquiry form (spec section 5), shared by the page and the action. Messages are translation keys of
 * the spec's messages; the attachment is checked again by content on the server.
 */
export const inquirySchema = z.object({
  category: z.enum(SUPPORT_CATEGORIES, { errorMap: () => ({ message: "support.required" }) }),
  title: z.string({ required_error: "support.required" }).trim().min(1, "support.required").max(100, "support.titleTooLong"),
  description: z
    .string({ required_error: "support.required" })
    .trim()
    .min(1, "support.required")
    .max(INQUIRY_DESCRIPTION_MAX, "support.descriptionTooLong"),
  email: z.string({ required_error: "auth.emailRequired" }).trim().min(1, "auth.emailRequired").email("auth.emailInvalid"),
  attachment: z
    .instanceof(File)
    .optional()
    .refine(
      (f) => !f || f.size === 0 || (f.size <= INQUIRY_ATTACHMENT_MAX_BYTES && /\.(jpe?g|png)$/i.test(f.name)),
      "support.attachRefused",
    ),
});
