import { Form, Link } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { BANNER_KINDS, PUBLISHING_PAGES } from "../../market/publishing/pages";
import { optionsOf, SelectField } from "../parts";

/** Where a draft is shown as the storefront would show it, before anything is saved. */
export function PreviewPane({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="publishing-preview" aria-labelledby="publishing-preview-heading">
      <h2 id="publishing-preview-heading">{t("admin.publishing.preview.heading")}</h2>
      <p className="admin-hint">{t("admin.publishing.preview.note")}</p>
      <div className="publishing-preview-frame">{children}</div>
    </section>
  );
}

/** The two buttons of every publishing form: look first, then publish. */
export function PreviewOrSave({ save }: { save: string }) {
  const { t } = useTranslation();
  return (
    <p className="publishing-actions">
      <button type="submit" name="intent" value="preview" className="admin-link-button">
        {t("admin.publishing.preview.button")}
      </button>{" "}
      <button type="submit" name="intent" value="save">
        {save}
      </button>
    </p>
  );
}

/**
 * A row's order and visibility buttons (one POST form: intent up, down, show or hide, and the row's id), each named
 * with the row's title for screen readers. The action answers them with the domain's moveInScope.
 */
export function ReorderButtons({ id, title, visible }: { id: number; title: string; visible?: boolean }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="admin-inline-form">
      <input type="hidden" name="id" value={id} />
      <button type="submit" name="intent" value="up" aria-label={t("admin.publishing.moveUpOf", { title })}>
        {t("admin.publishing.moveUp")}
      </button>
      <button type="submit" name="intent" value="down" aria-label={t("admin.publishing.moveDownOf", { title })}>
        {t("admin.publishing.moveDown")}
      </button>
      {visible === undefined ? null : (
        <button
          type="submit"
          name="intent"
          value={visible ? "hide" : "show"}
          aria-label={t(visible ? "admin.publishing.hideOf" : "admin.publishing.showOf", { title })}
        >
          {visible ? t("admin.publishing.hide") : t("admin.publishing.show")}
        </button>
      )}
    </Form>
  );
}

/** The top of a publishing page: the way back, its title and what it is for. */
export function PublishingHead({ back, title, lead }: { back?: { to: string; text: string }; title: string; lead?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <p>
        <Link to={back?.to ?? "/admin/publishing"}>{back?.text ?? t("admin.publishing.back")}</Link>
      </p>
      <h1>{title}</h1>
      {lead ? <p>{lead}</p> : null}
    </>
  );
}

/** The storefront page a banner or keyword belongs to; with `all`, a filter that may be left empty. */
export function PageSelect({ value, all }: { value: string; all?: boolean }) {
  const { t } = useTranslation();
  return (
    <SelectField
      label={t("admin.publishing.fields.page")}
      name="page"
      value={value}
      all={all ? t("admin.publishing.all") : undefined}
      options={optionsOf(PUBLISHING_PAGES, (p) => t(`admin.publishing.pages.${p}`))}
    />
  );
}

/** Banner or key visual; with `all`, a filter that may be left empty. */
export function KindSelect({ value, all }: { value: string; all?: boolean }) {
  const { t } = useTranslation();
  return (
    <SelectField
      label={t("admin.publishing.fields.kind")}
      name="kind"
      value={value}
      all={all ? t("admin.publishing.all") : undefined}
      options={optionsOf(BANNER_KINDS, (k) => t(`admin.publishing.kinds.${k}`))}
    />
  );
}

/** The two titles of a draft (Korean and English), required. */
export function TitleFields({ values, maxLength }: { values: { title_ko: string; title_en: string }; maxLength: number }) {
  const { t } = useTranslation();
  return (
    <>
      <label>
        {t("admin.publishing.fields.titleKo")}
        <input name="title_ko" lang="ko" required maxLength={maxLength} defaultValue={values.title_ko} />
      </label>
      <label>
        {t("admin.publishing.fields.titleEn")}
        <input name="title_en" lang="en" required maxLength={maxLength} defaultValue={values.title_en} />
      </label>
    </>
  );
}

/** The two texts of a notice or event (Korean and English), required. */
export function BodyFields({ values }: { values: { body_ko: string; body_en: string } }) {
  const { t } = useTranslation();
  return (
    <>
      <label>
        {t("admin.publishing.fields.bodyKo")}
        <textarea name="body_ko" lang="ko" required rows={8} defaultValue={values.body_ko} />
      </label>
      <label>
        {t("admin.publishing.fields.bodyEn")}
        <textarea name="body_en" lang="en" required rows={8} defaultValue={values.body_en} />
      </label>
    </>
  );
}

/**
 * A draft's picture: the one it names so far (kept in a hidden field) and a file to replace it, with the rule for
 * pictures as its hint (`{idPrefix}-image-hint`).
 */
export function ImageField({ idPrefix, path }: { idPrefix: string; path: string }) {
  const { t } = useTranslation();
  return (
    <fieldset>
      <legend>{t("admin.publishing.fields.image")}</legend>
      {path ? <img className="publishing-thumb" src={path} alt={t("admin.publishing.events.currentImage")} /> : null}
      <input type="hidden" name="image_path" value={path} />
      <label>
        {t("admin.publishing.fields.imageFile")}
        <input type="file" name="image" accept="image/png,image/jpeg" aria-describedby={`${idPrefix}-image-hint`} />
      </label>
      <p id={`${idPrefix}-image-hint`} className="admin-hint">
        {t("admin.publishing.imageHint")}
      </p>
    </fieldset>
  );
}

/** A promo coupon's code and percentage, the code described by the coupon rule's hint (`hintId`, shown by the caller). */
export function CouponInputs({
  names,
  code,
  percent,
  hintId,
}: {
  names: { code: string; percent: string };
  code: string;
  percent: string;
  hintId: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <label>
        {t("admin.publishing.fields.couponCode")}
        <input name={names.code} maxLength={30} autoComplete="off" defaultValue={code} aria-describedby={hintId} />
      </label>
      <label>
        {t("admin.publishing.fields.discountPercent")}
        <input name={names.percent} inputMode="numeric" pattern="[0-9]*" maxLength={2} defaultValue={percent} />
      </label>
    </>
  );
}
