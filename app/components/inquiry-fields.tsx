import { type FieldMetadata, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "../i18n/react";
import { INQUIRY_DESCRIPTION_MAX } from "../market/rules";
import { SUPPORT_CATEGORIES } from "../market/support-rules";
import { TextField } from "./forms";

type Field = FieldMetadata<any>;
/** The text fields, as TextField reads them (conform types a schema's field by its value, any here). */
const text = (f: Field) => f as unknown as FieldMetadata<string>;

/**
 * The fields of a 1:1 inquiry (spec section 5): category, title, description with its count, e-mail and a jpg/png
 * attachment, each with its error in a reserved space. The 1:1 form (/support/question) and the edit form of
 * /mypage/qna/{id} both render them, so the two read and answer alike. Errors are translation keys.
 */
export function InquiryFields({
  fields,
  attachmentLabel,
  attachmentHint,
  children,
}: {
  fields: { category: Field; title: Field; description: Field; email: Field; attachment: Field };
  attachmentLabel?: string;
  /** A line under the file input (what happens to the current attachment). */
  attachmentHint?: string;
  /** More controls after the attachment (removing the current one). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [length, setLength] = useState<number | null>(null);
  const fileProps = getInputProps(fields.attachment, { type: "file", ariaAttributes: false });
  const areaProps = getTextareaProps(fields.description, { ariaAttributes: false });
  const selectProps = getSelectProps(fields.category, { ariaAttributes: false });
  const errorOf = (f: Field) => f.errors?.map((e) => t(e)).join(" ");
  // A re-rendered form carries the posted text, whose line breaks are CRLF; the browser counts each as one.
  const typed = typeof fields.description.initialValue === "string" ? fields.description.initialValue.replace(/\r\n?/g, "\n").length : 0;
  return (
    <>
      <div className="field">
        <label htmlFor={fields.category.id}>{t("support.form.category")}</label>
        <select
          {...selectProps}
          key={selectProps.key}
          aria-invalid={fields.category.errors?.length ? true : undefined}
          aria-describedby={`${fields.category.id}-error`}
        >
          <option value="">—</option>
          {SUPPORT_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`support.categories.${c}`)}
            </option>
          ))}
        </select>
        <p id={`${fields.category.id}-error`} className="field-error" aria-live="polite">
          {errorOf(fields.category)}
        </p>
      </div>
      <TextField field={text(fields.title)} label={t("support.form.title")} />
      <div className="field">
        <label htmlFor={fields.description.id}>{t("support.form.description")}</label>
        <textarea
          {...areaProps}
          key={areaProps.key}
          rows={8}
          maxLength={INQUIRY_DESCRIPTION_MAX}
          onInput={(e) => setLength(e.currentTarget.value.length)}
          aria-invalid={fields.description.errors?.length ? true : undefined}
          aria-describedby={`${fields.description.id}-count ${fields.description.id}-error`}
        />
        <p id={`${fields.description.id}-count`} className="field-hint">
          {t("support.form.count", { count: length ?? typed })}
        </p>
        <p id={`${fields.description.id}-error`} className="field-error" aria-live="polite">
          {errorOf(fields.description)}
        </p>
      </div>
      <TextField field={text(fields.email)} label={t("support.form.email")} type="email" autoComplete="email" />
      <div className="field">
        <label htmlFor={fields.attachment.id}>{attachmentLabel ?? t("support.form.attachment")}</label>
        <input
          {...fileProps}
          key={fileProps.key}
          accept=".jpg,.jpeg,.png,image/jpeg,image/png"
          aria-invalid={fields.attachment.errors?.length ? true : undefined}
          aria-describedby={[attachmentHint ? `${fields.attachment.id}-hint` : "", `${fields.attachment.id}-error`].join(" ").trim()}
        />
        {attachmentHint ? (
          <p id={`${fields.attachment.id}-hint`} className="field-hint">
            {attachmentHint}
          </p>
        ) : null}
        <p id={`${fields.attachment.id}-error`} className="field-error" aria-live="polite">
          {errorOf(fields.attachment)}
        </p>
      </div>
      {children}
    </>
  );
}
