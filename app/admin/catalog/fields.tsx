import { useTranslation } from "../../i18n/react";

/** An item's editable fields as form values (what was stored, or what the operator typed before a refusal). */
export type ContentValues = Record<string, string>;

export interface TermOption {
  id: number;
  name: string;
}

export interface TermOptions {
  categories: TermOption[];
  genres: TermOption[];
  moods: TermOption[];
}

/** The stored item as form values. */
export function valuesOf(row: {
  title_ko: string;
  title_en: string;
  description_ko: string;
  description_en: string;
  tags_ko: string;
  tags_en: string;
  price_type: string;
  price_krw: number;
  price_usd: number;
  category_id: number | null;
  genre_id: number | null;
  mood_id: number | null;
  bpm: number | null;
  contents_type_sub: number | null;
}): ContentValues {
  const s = (v: number | null) => (v === null ? "" : String(v));
  return {
    titleKo: row.title_ko,
    titleEn: row.title_en,
    descriptionKo: row.description_ko,
    descriptionEn: row.description_en,
    tagsKo: row.tags_ko,
    tagsEn: row.tags_en,
    priceType: row.price_type,
    priceKrw: String(row.price_krw),
    priceUsd: String(row.price_usd),
    categoryId: s(row.category_id),
    genreId: s(row.genre_id),
    moodId: s(row.mood_id),
    bpm: s(row.bpm),
    audioSub: s(row.contents_type_sub),
  };
}

const PRICE_TYPES = ["paid", "free", "benefit"] as const;
const AUDIO_SUBS = ["3001", "3002", "3003"] as const;

/**
 * The fields every item has (titles, descriptions, tags, prices, taxonomy) and audio's own (kind, BPM). `audio`
 * says whether to show the latter; `type` is null on the new-item page, where all are shown and the type decides.
 */
export function ContentFields({ values, options, audio }: { values: ContentValues; options: TermOptions; audio: boolean }) {
  const { t } = useTranslation();
  const f = (key: string) => t(`admin.catalog.fields.${key}`);
  return (
    <>
      <fieldset>
        <legend>{t("admin.catalog.edit.texts")}</legend>
        <div className="catalog-grid">
          <label>
            {f("titleKo")}
            <input name="titleKo" required maxLength={200} defaultValue={values.titleKo} lang="ko" />
          </label>
          <label>
            {f("titleEn")}
            <input name="titleEn" required maxLength={200} defaultValue={values.titleEn} lang="en" />
          </label>
          <label>
            {f("descriptionKo")}
            <textarea name="descriptionKo" rows={4} maxLength={5000} defaultValue={values.descriptionKo} lang="ko" />
          </label>
          <label>
            {f("descriptionEn")}
            <textarea name="descriptionEn" rows={4} maxLength={5000} defaultValue={values.descriptionEn} lang="en" />
          </label>
          <label>
            {f("tagsKo")}
            <input name="tagsKo" maxLength={1000} defaultValue={values.tagsKo} aria-describedby="tags-hint" lang="ko" />
          </label>
          <label>
            {f("tagsEn")}
            <input name="tagsEn" maxLength={1000} defaultValue={values.tagsEn} aria-describedby="tags-hint" lang="en" />
          </label>
          <p id="tags-hint" className="admin-hint wide">
            {t("admin.catalog.edit.tagsHint")}
          </p>
        </div>
      </fieldset>
      <fieldset>
        <legend>{t("admin.catalog.edit.price")}</legend>
        <div className="catalog-grid">
          <label>
            {f("priceType")}
            <select name="priceType" defaultValue={values.priceType || "paid"}>
              {PRICE_TYPES.map((p) => (
                <option key={p} value={p}>
                  {t(`admin.catalog.priceTypes.${p}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {f("priceKrw")}
            <input
              name="priceKrw"
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              defaultValue={values.priceKrw}
              aria-describedby="price-hint"
            />
          </label>
          <label>
            {f("priceUsd")}
            <input
              name="priceUsd"
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              defaultValue={values.priceUsd}
              aria-describedby="price-hint"
            />
          </label>
          <p id="price-hint" className="admin-hint wide">
            {t("admin.catalog.edit.priceHint")}
          </p>
        </div>
      </fieldset>
      <fieldset>
        <legend>{t("admin.catalog.edit.taxonomy")}</legend>
        <div className="catalog-grid">
          <label>
            {f("category")}
            <select name="categoryId" defaultValue={values.categoryId}>
              <option value="">{t("admin.catalog.edit.none")}</option>
              {options.categories.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </label>
          {audio ? (
            <label>
              {f("genre")}
              <select name="genreId" defaultValue={values.genreId}>
                <option value="">{t("admin.catalog.edit.none")}</option>
                {options.genres.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label>
            {f("mood")}
            <select name="moodId" defaultValue={values.moodId}>
              <option value="">{t("admin.catalog.edit.none")}</option>
              {options.moods.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </label>
          {audio ? (
            <>
              <label>
                {f("audioSub")}
                <select name="audioSub" defaultValue={values.audioSub}>
                  <option value="">{t("admin.catalog.edit.none")}</option>
                  {AUDIO_SUBS.map((s) => (
                    <option key={s} value={s}>
                      {t(`admin.catalog.audioSubs.${s}`)}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                {f("bpm")}
                <input name="bpm" type="number" min={20} max={300} step={1} inputMode="numeric" defaultValue={values.bpm} />
              </label>
            </>
          ) : null}
        </div>
      </fieldset>
    </>
  );
}
