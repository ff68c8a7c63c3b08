import { useId } from "react";
import { useTranslation } from "../i18n/react";
import { PURCHASE_REQUEST_MESSAGE_MAX } from "../market/requests/rules";

/**
 * The purchase request's own fields (spec section 5): the requester's e-mail and a message of up to 100 characters
 * naming the company and the requester, with what was typed and each field's message after a refused submit.
 * Shared by the website's /request and the webview's /mypage/sw/request.
 */
export function RequestFields({ values, errors }: { values?: { request_email: string; message: string }; errors: Record<string, string> }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <>
      <label htmlFor={`${id}-email`} className="field-label">
        {t("request.requesterEmail")}
      </label>
      <input
        id={`${id}-email`}
        name="request_email"
        type="email"
        required
        maxLength={254}
        autoComplete="email"
        defaultValue={values?.request_email ?? ""}
        aria-invalid={errors.request_email ? true : undefined}
        aria-describedby={`${id}-email-error`}
      />
      <p id={`${id}-email-error`} className="field-error" role="alert">
        {errors.request_email ? t(errors.request_email) : ""}
      </p>
      <label htmlFor={`${id}-message`} className="field-label">
        {t("request.message")}
      </label>
      <textarea
        id={`${id}-message`}
        name="message"
        required
        maxLength={PURCHASE_REQUEST_MESSAGE_MAX}
        rows={3}
        defaultValue={values?.message ?? ""}
        aria-invalid={errors.message ? true : undefined}
        aria-describedby={`${id}-message-hint ${id}-message-error`}
      />
      <small id={`${id}-message-hint`} className="muted">
        {t("request.messageHint")}
      </small>
      <p id={`${id}-message-error`} className="field-error" role="alert">
        {errors.message ? t(errors.message) : ""}
      </p>
    </>
  );
}
