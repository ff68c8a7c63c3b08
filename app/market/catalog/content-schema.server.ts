import { z } from "zod";
import { type ContentInput, type ContentProblem, PRICE_TYPES } from "./manage.server";

/**
 * An item's fields as text (the console's forms, a row of an import sheet) to a ContentInput: one schema for every
 * door, so a field is refused alike wherever it comes from. The catalog's own rules (prices by price type, taxonomy
 * by type) are checkContentInput's (manage.server.ts).
 */
const optionalId = z.preprocess(
  (v) => (v === "" || v === undefined ? null : v),
  z.coerce.number().int().positive().max(2_147_483_647).nullable(),
);
const money = (max: number) => z.preprocess((v) => (v === "" || v === undefined ? 0 : v), z.coerce.number().int().min(0).max(max));

const contentFields = z.object({
  titleKo: z.string().trim().min(1).max(200),
  titleEn: z.string().trim().min(1).max(200),
  descriptionKo: z.string().max(5000).default(""),
  descriptionEn: z.string().max(5000).default(""),
  tagsKo: z.string().max(1000).default(""),
  tagsEn: z.string().max(1000).default(""),
  priceType: z.enum(PRICE_TYPES),
  priceKrw: money(100_000_000),
  priceUsd: money(10_000_000),
  categoryId: optionalId,
  genreId: optionalId,
  moodId: optionalId,
  bpm: z.preprocess((v) => (v === "" || v === undefined ? null : v), z.coerce.number().int().min(0).max(10_000).nullable()),
  audioSub: optionalId,
});

/** Which message a field's refusal shows. */
const FIELD_PROBLEM: Record<string, ContentProblem> = {
  titleKo: "title",
  titleEn: "title",
  descriptionKo: "description",
  descriptionEn: "description",
  tagsKo: "tags",
  tagsEn: "tags",
  priceType: "price",
  priceKrw: "price",
  priceUsd: "price",
  categoryId: "category",
  genreId: "genre",
  moodId: "mood",
  bpm: "bpm",
  audioSub: "audioSub",
};

/** An item's fields from a form (the edit, the new item, a sheet's row), or the first field refused. */
export function parseContentForm(
  form: Record<string, string | undefined>,
): { ok: true; input: ContentInput } | { ok: false; problem: ContentProblem } {
  const parsed = contentFields.safeParse(form);
  if (parsed.success) return { ok: true, input: parsed.data };
  const field = String(parsed.error.issues[0]?.path[0] ?? "titleKo");
  return { ok: false, problem: FIELD_PROBLEM[field] ?? "title" };
}
