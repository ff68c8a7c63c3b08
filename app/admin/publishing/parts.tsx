import { useTranslation } from "../../i18n/react";

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

/** The form's problem, read out when the page comes back with it. */
export function Problem({ id, text }: { id: string; text: string | null }) {
  if (!text) return null;
  return (
    <p id={id} role="alert" className="admin-alert">
      {text}
    </p>
  );
}
