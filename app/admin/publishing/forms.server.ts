import { z } from "zod";
import type { BannerDraft } from "../../market/publishing/banners.server";
import type { EventDraft } from "../../market/publishing/events.server";
import type { KeywordDraft } from "../../market/publishing/keywords.server";
import type { NoticeDraft } from "../../market/publishing/notices.server";
import { BANNER_KINDS, PUBLISHING_PAGES } from "../../market/publishing/pages";

/**
 * The publishing section's form schemas (zod stays in .server modules). Dates and times are typed in Asia/Seoul
 * (<input type="datetime-local">) and stored as UTC instants.
 */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?$/;

/** "2026-12-01T10:00" read in Asia/Seoul as an ISO instant, or null when it is no such moment. */
export function seoulLocalToIso(value: string): string | null {
  const m = LOCAL.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as number[];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const at = new Date(Date.UTC(y, mo - 1, d, h - 9, mi));
  // 31 February and the like roll over: refuse them.
  if (new Date(at.getTime() + 9 * 3600_000).getUTCDate() !== d) return null;
  return at.toISOString();
}

/** An instant as the value of a datetime-local input in Asia/Seoul ("YYYY-MM-DDTHH:mm"). */
export function isoToSeoulLocal(iso: string): string {
  return new Date(new Date(iso).getTime() + 9 * 3600_000).toISOString().slice(0, 16);
}

const text = (max: number) => z.string().max(max).default("");
const flag = z
  .string()
  .optional()
  .transform((v) => v === "1");
const seoulInstant = z.string().transform((v, ctx) => {
  const iso = seoulLocalToIso(v);
  if (!iso) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "date" });
    return z.NEVER;
  }
  return iso;
});

export const idParam = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number);
export const pageNumberSchema = z.coerce.number().int().min(1).max(10_000).catch(1);
export const pageFilter = z.enum(PUBLISHING_PAGES).optional().catch(undefined);
export const kindFilter = z.enum(BANNER_KINDS).optional().catch(undefined);

const bannerForm = z.object({
  page: z.enum(PUBLISHING_PAGES),
  kind: z.enum(BANNER_KINDS),
  title_ko: text(120),
  title_en: text(120),
  subtitle_ko: text(200),
  subtitle_en: text(200),
  image_path: text(200),
  link: text(500),
  visible: flag,
});
export function parseBanner(form: Record<string, string>): BannerDraft | null {
  const r = bannerForm.safeParse(form);
  if (!r.success) return null;
  const f = r.data;
  return {
    page: f.page,
    kind: f.kind,
    titleKo: f.title_ko,
    titleEn: f.title_en,
    subtitleKo: f.subtitle_ko,
    subtitleEn: f.subtitle_en,
    imagePath: f.image_path.trim(),
    link: f.link.trim(),
    visible: f.visible,
  };
}

/** A row's quick change from a list: show, hide, or move up or down. */
export const rowChangeSchema = z.object({
  intent: z.enum(["show", "hide", "up", "down"]),
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

const keywordForm = z.object({
  page: z.enum(PUBLISHING_PAGES),
  keyword_ko: text(200),
  keyword_en: text(200),
  visible: flag,
});
export function parseKeyword(form: Record<string, string>): KeywordDraft | null {
  const r = keywordForm.safeParse(form);
  if (!r.success) return null;
  return { page: r.data.page, keywordKo: r.data.keyword_ko, keywordEn: r.data.keyword_en, visible: r.data.visible };
}

const noticeForm = z.object({
  title_ko: text(200),
  title_en: text(200),
  body_ko: text(20_000),
  body_en: text(20_000),
  pinned: flag,
  published_at: seoulInstant,
});
export function parseNotice(form: Record<string, string>): NoticeDraft | null {
  const r = noticeForm.safeParse(form);
  if (!r.success) return null;
  const f = r.data;
  return { titleKo: f.title_ko, titleEn: f.title_en, bodyKo: f.body_ko, bodyEn: f.body_en, pinned: f.pinned, publishedAt: f.published_at };
}

const percent = z
  .string()
  .trim()
  .transform((v, ctx) => {
    if (v === "") return null;
    if (!/^\d{1,3}$/.test(v)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "percent" });
      return z.NEVER;
    }
    return Number(v);
  });
const code = z
  .string()
  .trim()
  .max(40)
  .transform((v) => (v === "" ? null : v.toUpperCase()));

const eventForm = z.object({
  title_ko: text(200),
  title_en: text(200),
  body_ko: text(20_000),
  body_en: text(20_000),
  image_path: text(200),
  coupon_code: code.default(""),
  discount_percent: percent.default(""),
  test_only: flag,
  starts_at: seoulInstant,
  ends_at: seoulInstant,
});
export function parseEvent(form: Record<string, string>): EventDraft | null {
  const r = eventForm.safeParse(form);
  if (!r.success) return null;
  const f = r.data;
  return {
    titleKo: f.title_ko,
    titleEn: f.title_en,
    bodyKo: f.body_ko,
    bodyEn: f.body_en,
    imagePath: f.image_path.trim() || null,
    couponCode: f.coupon_code,
    discountPercent: f.discount_percent,
    testOnly: f.test_only,
    startsAt: f.starts_at,
    endsAt: f.ends_at,
  };
}

const couponForm = z.object({
  code: code.default(""),
  percent: percent.default(""),
  starts_at: seoulInstant,
  ends_at: seoulInstant,
});
export function parseCoupon(form: Record<string, string>) {
  const r = couponForm.safeParse(form);
  if (!r.success) return null;
  return { code: r.data.code, percent: r.data.percent, startsAt: r.data.starts_at, endsAt: r.data.ends_at };
}

export const intentSchema = z.enum(["preview", "save"]).catch("save");

/** How much of an event post is read: a picture up to 2 MB (a larger one is refused by name), the texts. */
export const EVENT_FORM_LIMITS = { maxFileBytes: 2 * 1024 * 1024, maxParts: 16, maxBodyBytes: 4 * 1024 * 1024 };
