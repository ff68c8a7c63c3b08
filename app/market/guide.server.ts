import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import { MarketError } from "./errors";
import { type Actor, recordAudit } from "./operators/audit.server";

/**
 * The six-step user guide on /support (guide_steps, migration 0019): each step's title (the line the page shows)
 * and an optional text under it, in Korean and English. The console edits the six steps together; there are
 * always six (the spec's "six-step user guide"), so steps are changed, never added or removed.
 */
export const GUIDE_STEP_COUNT = 6;

export interface GuideStepInput {
  step: number;
  titleKo: string;
  titleEn: string;
  textKo: string;
  textEn: string;
}

/** The guide in the visitor's language, step 1 first. */
export async function guideSteps(db: DB, locale: Locale): Promise<{ step: number; title: string; text: string }[]> {
  const rows = await db.selectFrom("guide_steps").selectAll().orderBy("step").execute();
  return rows.map((r) => ({
    step: r.step,
    title: locale === "ko" ? r.title_ko : r.title_en,
    text: locale === "ko" ? r.text_ko : r.text_en,
  }));
}

/** The guide with both languages, for the console's form. */
export async function consoleGuide(db: DB): Promise<(GuideStepInput & { updatedAt: string | null })[]> {
  const rows = await db.selectFrom("guide_steps").selectAll().orderBy("step").execute();
  return rows.map((r) => ({
    step: r.step,
    titleKo: r.title_ko,
    titleEn: r.title_en,
    textKo: r.text_ko,
    textEn: r.text_en,
    updatedAt: r.updated_at,
  }));
}

/**
 * Saves the six steps in one transaction, with one audit line (guide.update) holding the steps that changed before
 * and after; answers how many changed (0 writes nothing and logs nothing).
 */
export async function updateGuide(db: DB, steps: GuideStepInput[], actor: Actor, now = new Date()): Promise<number> {
  const wanted = [...steps].sort((a, b) => a.step - b.step);
  if (wanted.length !== GUIDE_STEP_COUNT || wanted.some((s, i) => s.step !== i + 1))
    throw new MarketError("GUIDE_STEPS", 400, `The guide has exactly ${GUIDE_STEP_COUNT} steps`);
  return db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("guide_steps").selectAll().orderBy("step").execute();
    const before: Record<number, GuideStepInput> = {};
    const after: Record<number, GuideStepInput> = {};
    for (const s of wanted) {
      const next = { step: s.step, titleKo: s.titleKo.trim(), titleEn: s.titleEn.trim(), textKo: s.textKo.trim(), textEn: s.textEn.trim() };
      const old = current.find((r) => r.step === s.step);
      const prev = old ? { step: old.step, titleKo: old.title_ko, titleEn: old.title_en, textKo: old.text_ko, textEn: old.text_en } : null;
      if (prev && JSON.stringify(prev) === JSON.stringify(next)) continue;
      const row = {
        title_ko: next.titleKo,
        title_en: next.titleEn,
        text_ko: next.textKo,
        text_en: next.textEn,
        updated_at: now.toISOString(),
      };
      if (old) await trx.updateTable("guide_steps").set(row).where("step", "=", s.step).execute();
      else
        await trx
          .insertInto("guide_steps")
          .values({ step: s.step, ...row })
          .execute();
      if (prev) before[s.step] = prev;
      after[s.step] = next;
    }
    const changed = Object.keys(after).length;
    if (changed) await recordAudit(trx, actor, { action: "guide.update", targetType: "guide", targetId: null, before, after }, now);
    return changed;
  });
}
