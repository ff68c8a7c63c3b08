import { z } from "zod";
import { GUIDE_STEP_COUNT, type GuideStepInput } from "../../market/guide.server";
import { INQUIRY_STATUSES, SUPPORT_CATEGORIES } from "../../market/support-rules";
import { ANSWER_MAX, FAQ_ANSWER_MAX, FAQ_QUESTION_MAX, GUIDE_TEXT_MAX, GUIDE_TITLE_MAX, REASON_MAX } from "./limits";

/** The support section's form and query schemas (server-only, so zod stays out of the browser bundle). */

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)))
  .optional()
  .catch(undefined);

/** /admin/inquiries?status=&category=&from=&to=&page=: anything unreadable is dropped, never an error. */
export const inquiryQuerySchema = z.object({
  status: z.enum(INQUIRY_STATUSES).optional().catch(undefined),
  category: z.enum(SUPPORT_CATEGORIES).optional().catch(undefined),
  from: day,
  to: day,
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

/** The answer form on /admin/inquiries/:id. */
export const answerSchema = z.object({
  answer: z.string().trim().min(1, "answer_required").max(ANSWER_MAX, "answer_long"),
  reason: z.string().trim().max(REASON_MAX, "reason_long").optional(),
});

export const positiveIdSchema = z.coerce.number().int().positive().max(2_147_483_647);

/** An FAQ entry's fields (the add form on /admin/publishing/faq, the edit form on /admin/publishing/faq/:id). */
export const faqSchema = z.object({
  category: z.enum(SUPPORT_CATEGORIES, { message: "category" }),
  questionKo: z.string().trim().min(1, "questionKo").max(FAQ_QUESTION_MAX, "questionKo"),
  questionEn: z.string().trim().min(1, "questionEn").max(FAQ_QUESTION_MAX, "questionEn"),
  answerKo: z.string().trim().min(1, "answerKo").max(FAQ_ANSWER_MAX, "answerKo"),
  answerEn: z.string().trim().min(1, "answerEn").max(FAQ_ANSWER_MAX, "answerEn"),
  sort: z
    .string()
    .trim()
    .regex(/^\d{0,6}$/, "sort")
    .transform((s) => (s === "" ? null : Number(s))),
  hidden: z
    .string()
    .optional()
    .transform((v) => v === "1"),
});

const FAQ_PROBLEMS = ["category", "questionKo", "questionEn", "answerKo", "answerEn", "sort"] as const;
export type FaqProblem = (typeof FAQ_PROBLEMS)[number] | "invalid" | "confirm";

/** The FAQ form's first refused field, as the page's message key. */
export function faqProblem(issues: { message: string }[]): FaqProblem {
  const m = issues[0]?.message;
  return (FAQ_PROBLEMS as readonly string[]).includes(m ?? "") ? (m as FaqProblem) : "invalid";
}

export const faqQuerySchema = z.object({
  category: z.enum(SUPPORT_CATEGORIES).optional().catch(undefined),
  keyword: z.string().trim().max(50).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

const LANGS = ["Ko", "En"] as const;

/** The guide's form: title{Ko,En}{n} and text{Ko,En}{n} for n = 1..6; answers the steps or the first bad field's name. */
export function parseGuideForm(form: Record<string, string>): { ok: true; steps: GuideStepInput[] } | { ok: false; field: string } {
  const steps: GuideStepInput[] = [];
  for (let n = 1; n <= GUIDE_STEP_COUNT; n++) {
    const read: Record<string, string> = {};
    for (const lang of LANGS) {
      const title = (form[`title${lang}${n}`] ?? "").trim();
      const text = (form[`text${lang}${n}`] ?? "").trim();
      if (!title || title.length > GUIDE_TITLE_MAX) return { ok: false, field: `title${lang}${n}` };
      if (text.length > GUIDE_TEXT_MAX) return { ok: false, field: `text${lang}${n}` };
      read[`title${lang}`] = title;
      read[`text${lang}`] = text;
    }
    steps.push({ step: n, titleKo: read.titleKo, titleEn: read.titleEn, textKo: read.textKo, textEn: read.textEn });
  }
  return { ok: true, steps };
}

export { formObject, seoulDayEnd, seoulDayStart } from "../forms.server";
