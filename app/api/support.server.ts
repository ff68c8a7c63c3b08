import type { Locale } from "../i18n/config";
import { fixedT } from "../i18n/i18n.server";
import { MarketError } from "../market/errors";
import { listFaq } from "../market/faq.server";
import { attachmentChange, readApiInquiry } from "../market/inquiry-forms.server";
import { admitInquiry, RateLimited } from "../market/rate-limits.server";
import { PAGE_SIZE } from "../market/rules";
import { editInquiry, fileInquiry, getInquiry, INQUIRY_FORM_LIMITS, listInquiries } from "../market/support.server";
import { SUPPORT_CATEGORIES } from "../market/support-rules";
import { readBoundedForm } from "../utils/multipart.server";
import { publicOrigin } from "../utils/origin.server";
import { readShopper } from "../utils/shopper.server";
import { requireMember } from "./caller.server";
import { type ApiCall, route } from "./define";
import { list, success } from "./wire";
import { z } from "./zod";

const blankIsNone = (v: unknown) => (v === "" ? undefined : v);

const faqQuery = z.object({
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE.faq),
  keyword: z.preprocess(blankIsNone, z.string().trim().max(50).optional()),
  category: z.preprocess(blankIsNone, z.enum(SUPPORT_CATEGORIES).optional()),
});

const qnaQuery = z.object({
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE.inquiries),
});

/** A refusal worded as the pages word it, in the caller's language. */
const refuse = (language: Locale, code: string, status: number, key: string) => new MarketError(code, status, fixedT(language)(key));

/** The inquiry post's fields (multipart, or urlencoded without a file), read within the 1:1 form's limits. */
async function readInquiryPost(call: ApiCall, edit: boolean) {
  const { form, oversized, truncated } = await readBoundedForm(call.request, INQUIRY_FORM_LIMITS);
  if (truncated && !oversized.length) throw new MarketError("BAD_FORM", 400, "The body must be a multipart form within 20 MB");
  const input = readApiInquiry(form, { oversized: truncated ? [...oversized, "file"] : oversized, edit });
  if (!input.ok) throw refuse(call.language, input.code, 400, input.messageKey);
  return input.value;
}

/**
 * Support (spec section 7): `support/category`, `support/faq`, and the 1:1 inquiries `support/qna` (the caller's
 * list and one inquiry; POST files one, as the /support/question page does, members or not; PUT edits one of the
 * member's not yet answered). Names and messages are in the caller's `language`.
 */
const category = z.enum(SUPPORT_CATEGORIES);
const status = z.enum(["accepted", "completed"]);
const inquiryForm = z.object({
  category,
  title: z.string(),
  description: z.string().openapi({ description: "Up to 1,000 characters." }),
  email: z.string(),
  file: z.string().optional().openapi({ format: "binary", description: "jpg or png, up to 2 MB." }),
});
const tag = "Support";

export const supportRoutes = [
  route({
    method: "GET",
    path: "support/category",
    tag,
    summary: "Inquiry categories",
    answer: list(z.object({ code: category, name: z.string() })),
    handler: async (call) => {
      const t = fixedT(call.language);
      const list = SUPPORT_CATEGORIES.map((code) => ({ code, name: t(`support.categories.${code}`) }));
      return { list, total_count: list.length };
    },
  }),
  route({
    method: "GET",
    path: "support/faq",
    tag,
    summary: "Frequently asked questions, by keyword and category",
    query: faqQuery,
    answer: list(z.object({ id: z.number().int(), category, category_name: z.string(), question: z.string(), answer: z.string() })),
    handler: async (call, input) => {
      const q = input.query();
      const t = fixedT(call.language);
      const found = await listFaq(call.context.db, call.language, q);
      return {
        list: found.list.map((f) => ({
          id: f.id,
          category: f.category,
          category_name: t(`support.categories.${f.category}`),
          question: f.question,
          answer: f.answer,
        })),
        total_count: found.total_count,
      };
    },
  }),
  route({
    method: "GET",
    path: "support/qna",
    tag,
    summary: "The member's 1:1 inquiries",
    headers: ["authorizationToken"],
    query: qnaQuery,
    answer: list(
      z.object({
        id: z.number().int(),
        category,
        category_name: z.string(),
        title: z.string(),
        status,
        status_name: z.string(),
        has_attachment: z.boolean(),
        created_at: z.string(),
        updated_at: z.string().nullable(),
        answered_at: z.string().nullable(),
      }),
    ),
    handler: async (call, input) => {
      const viewer = await requireMember(call);
      const q = input.query();
      const t = fixedT(call.language);
      const found = await listInquiries(call.context.db, viewer.id, q);
      return {
        list: found.list.map((r) => ({
          id: r.id,
          category: r.category,
          category_name: t(`support.categories.${r.category}`),
          title: r.title,
          status: r.status,
          status_name: t(`qna.status.${r.status}`),
          has_attachment: r.has_attachment,
          created_at: r.created_at,
          updated_at: r.updated_at,
          answered_at: r.answered_at,
        })),
        total_count: found.total_count,
      };
    },
  }),
  route({
    method: "GET",
    path: "support/qna/:id",
    tag,
    summary: "One of the member's inquiries",
    headers: ["authorizationToken"],
    answer: z.object({
      id: z.number().int(),
      category,
      category_name: z.string(),
      title: z.string(),
      description: z.string(),
      email: z.string(),
      status,
      status_name: z.string(),
      editable: z.boolean(),
      attachment: z.object({ url: z.string(), content_type: z.string() }).nullable(),
      answer: z.string().nullable(),
      created_at: z.string(),
      updated_at: z.string().nullable(),
      answered_at: z.string().nullable(),
    }),
    handler: async (call) => {
      const viewer = await requireMember(call);
      const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).safeParse(call.params.id);
      const inquiry = id.success ? await getInquiry(call.context.db, viewer.id, id.data) : null;
      if (!inquiry) throw refuse(call.language, "INQUIRY_NOT_FOUND", 404, "qna.api.notFound");
      const t = fixedT(call.language);
      return {
        id: inquiry.id,
        category: inquiry.category,
        category_name: t(`support.categories.${inquiry.category}`),
        title: inquiry.title,
        description: inquiry.description,
        email: inquiry.email,
        status: inquiry.status,
        status_name: t(`qna.status.${inquiry.status}`),
        editable: inquiry.editable,
        attachment: inquiry.attachment
          ? {
              url: `${publicOrigin(call.request, call.context)}/mypage/qna/${inquiry.id}/attachment`,
              content_type: inquiry.attachment.type,
            }
          : null,
        answer: inquiry.answer,
        created_at: inquiry.created_at,
        updated_at: inquiry.updated_at,
        answered_at: inquiry.answered_at,
      };
    },
  }),
  route({
    method: "POST",
    path: "support/qna",
    tag,
    summary: "Files a 1:1 inquiry (multipart, or urlencoded without a file), members or not",
    headers: ["authorizationToken"],
    form: inquiryForm,
    answer: z.object({ state: success, id: z.number().int(), status }),
    handler: async (call) => {
      const input = await readInquiryPost(call, false);
      const { viewer } = await readShopper(call.request, call.context);
      const admitted = await admitInquiry(call.context.db, call.context.clientIp, { userId: viewer?.id ?? null, email: input.email });
      if (!admitted.allowed) throw new RateLimited(admitted.retryAfterMs);
      try {
        const id = await fileInquiry(call.context.db, call.context.storage, viewer?.id ?? null, {
          ...input,
          attachment: input.attachment?.size ? new Uint8Array(await input.attachment.arrayBuffer()) : null,
          language: call.language,
        });
        return { state: "SUCCESS", id, status: "accepted" };
      } catch (error) {
        if (error instanceof Error && error.message === "ATTACHMENT_REFUSED")
          throw refuse(call.language, "ATTACHMENT_REFUSED", 400, "support.attachRefused");
        throw error;
      }
    },
  }),
  route({
    method: "PUT",
    path: "support/qna",
    tag,
    summary: "Edits one of the member's unanswered inquiries (multipart: id, the fields, file or remove_file)",
    headers: ["authorizationToken"],
    form: inquiryForm.extend({ id: z.number().int(), remove_file: z.string().optional() }),
    answer: z.object({ state: success, id: z.number().int() }),
    handler: async (call) => {
      const viewer = await requireMember(call);
      const input = await readInquiryPost(call, true);
      const change = await attachmentChange({ attachment: input.attachment, removeAttachment: input.removeFile });
      const result = await editInquiry(call.context.db, call.context.storage, viewer.id, input.id as number, {
        ...input,
        attachment: change,
      });
      if (!result.ok) {
        if (result.reason === "not_found") throw refuse(call.language, "INQUIRY_NOT_FOUND", 404, "qna.api.notFound");
        if (result.reason === "answered") throw refuse(call.language, "INQUIRY_ANSWERED", 409, "qna.notEditable");
        throw refuse(call.language, "ATTACHMENT_REFUSED", 400, "support.attachRefused");
      }
      return { state: "SUCCESS", id: input.id };
    },
  }),
];
