import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { useTranslation } from "../i18n/react";

/**
 * A labelled input with its errors. Errors are translation keys (the zod schemas' messages), shown in a
 * reserved space linked by aria-describedby; aria-invalid marks the field.
 */
export function TextField({
  field,
  label,
  type = "text",
  autoComplete,
  hint,
}: {
  field: FieldMetadata<string>;
  label: string;
  type?: "text" | "email" | "password" | "search" | "url";
  autoComplete?: string;
  hint?: string;
}) {
  const { t } = useTranslation();
  const errorId = `${field.id}-error`;
  const hintId = `${field.id}-hint`;
  const describedBy = [hint ? hintId : null, field.errors?.length ? errorId : null].filter(Boolean).join(" ") || undefined;
  const { key, ...inputProps } = getInputProps(field, { type, ariaAttributes: false });
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        key={key}
        {...inputProps}
        autoComplete={autoComplete}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <p id={errorId} className="field-error" aria-live="polite">
        {field.errors?.map((e) => t(e)).join(" ")}
      </p>
    </div>
  );
}

/** Errors about the whole form (e.g. wrong credentials), announced to screen readers. */
export function FormErrors({ errors, id }: { errors?: string[]; id: string }) {
  const { t } = useTranslation();
  return (
    <div id={id} className="form-errors" role="alert">
      {errors?.length ? errors.map((e) => <p key={e}>{t(e)}</p>) : null}
    </div>
  );
}
