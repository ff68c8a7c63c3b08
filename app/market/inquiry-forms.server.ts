import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { INQUIRY_ATTACHMENT_MAX_BYTES, INQUIRY_DESCRIPTION_MAX } from "./rules";
import type { AttachmentChange } from "./support.server";
import { SUPPORT_CATEGORIES } from "./support-rules";

/**
 * The 1:1 inquiry's inputs, read on the server only (zod stays out of the browser bundle): the 1:1 form
 * (/support/question), the My page edit form and the API's posts all check the fields with one schema, so the
 * rules and messages of spec section 5 are written once.
 */

/**
 * The 1:1 inquiry form (spec section 5). Messages are translation keys of the spec's messages; the attachment is
 * checked again by content when it is stored (support.server.ts).
 */
export const inquirySchema = z.object({
  category: z.enum(SUPPORT_CATEGORIES, { errorMap: () => ({ message: "support.required" }) }),
  title: z.string({ required_error: "support.required" }).trim().min(1, "support.required").max(100, "support.titleTooLong"),
  // A form posts line breaks as CRLF; the browser's count (and its maxlength) counts each as one character.
  description: z.preprocess(
    (v) => (typeof v === "string" ? v.replace(/\r\n?/g, "\n") : v),
    z
      .string({ required_error: "support.required" })
      .trim()
      .min(1, "support.required")
      .max(INQUIRY_DESCRIPTION_MAX, "support.descriptionTooLong"),
  ),
  email: z.string({ required_error: "auth.emailRequired" }).trim().min(1, "auth.emailRequired").email("auth.emailInvalid"),
  attachment: z
    .instanceof(File)
    .optional()
    .refine(
      (f) => !f || f.size === 0 || (f.size <= INQUIRY_ATTACHMENT_MAX_BYTES && /\.(jpe?g|png)$/i.test(f.name)),
      "support.attachRefused",
    ),
});

/** The 1:1 form's fields as a page's component sees them (a type: nothing of zod reaches the browser). */
export type InquiryFormFields = z.input<typeof inquirySchema>;

/** The 1:1 form's submission (conform), for the action to reply with field errors and what was typed. */
export const parseInquiry = (form: FormData) => parseWithZod(form, { schema: inquirySchema });

/** The edit form of /mypage/qna/{id}: the 1:1 form's fields, and a box to remove the current attachment. */
export const inquiryEditSchema = inquirySchema.extend({ removeAttachment: z.boolean().optional() });

/** The edit form's fields as the page's component sees them (a type: nothing of zod reaches the browser). */
export type InquiryEditFields = z.input<typeof inquiryEditSchema>;

/** The edit form's submission (conform), for the action to reply with field errors and what was typed. */
export const parseInquiryEdit = (form: FormData) => parseWithZod(form, { schema: inquiryEditSchema });

/** What the edit asks for the attachment: a new file replaces it, else the box removes it, else it stays. */
export async function attachmentChange(value: { attachment?: File; removeAttachment?: boolean }): Promise<AttachmentChange> {
  if (value.attachment?.size) return new Uint8Array(await value.attachment.arrayBuffer());
  return value.removeAttachment ? "remove" : "keep";
}

/** The error codes the API answers for the form's messages (their translation keys). */
const API_CODES: Record<string, string> = {
  "support.required": "REQUIRED",
  "support.titleTooLong": "TITLE_TOO_LONG",
  "support.descriptionTooLong": "DESCRIPTION_TOO_LONG",
  "auth.emailRequired": "EMAIL_REQUIRED",
  "auth.emailInvalid": "EMAIL_INVALID",
  "support.attachRefused": "ATTACHMENT_REFUSED",
};

const flag = z
  .string()
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "on");
const apiId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export type ApiInquiryInput =
  | {
      ok: true;
      value: z.output<typeof inquirySchema> & { id: number | null; removeFile: boolean };
    }
  | { ok: false; code: string; messageKey: string };

/**
 * An API post of an inquiry (`POST`/`PUT support/qna`, multipart): category, title, description, email, an
 * optional `file` (or `attachment`), and for an edit the inquiry's `id` and `remove_file`. The first problem is
 * answered as the page would word it (a translation key) with a stable code.
 */
export function readApiInquiry(form: FormData, options: { oversized: string[]; edit: boolean }): ApiInquiryInput {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : undefined;
  };
  const file = form.get("file") ?? form.get("attachment");
  if (options.edit && !apiId.safeParse(text("id")).success) return { ok: false, code: "ID_REQUIRED", messageKey: "qna.api.idRequired" };
  // Like the page: a file over 2 MB is answered with "Files can't be attached." alone.
  if (options.oversized.includes("file") || options.oversized.includes("attachment"))
    return { ok: false, code: "ATTACHMENT_REFUSED", messageKey: "support.attachRefused" };
  const parsed = inquirySchema.safeParse({
    category: text("category"),
    title: text("title"),
    description: text("description"),
    email: text("email"),
    attachment: file instanceof File && file.size > 0 ? file : undefined,
  });
  if (!parsed.success) {
    const key = parsed.error.issues[0].message;
    return { ok: false, code: API_CODES[key] ?? "INVALID", messageKey: key };
  }
  return {
    ok: true,
    value: { ...parsed.data, id: options.edit ? apiId.parse(text("id")) : null, removeFile: flag.parse(text("remove_file")) },
  };
}
