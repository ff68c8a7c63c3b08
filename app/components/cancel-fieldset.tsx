import { useTranslation } from "../i18n/react";

/** What a cancellation form answered: the values typed (kept on a refusal) and the refusal's message key. */
export interface CancelAnswer {
  ok: boolean;
  error?: string | null;
  values?: { reason?: string; bank?: string; account?: string; holder?: string };
}

/**
 * The cancellation fields of a payment (spec sections 4 and 9: within 7 days, not downloaded; a virtual account is
 * refunded to an account the buyer names, less 10%): the reason, the refund account for a virtual account, the
 * refusal and the submit button. One form for the member's payment page and the key-only buyer's pages; the rules
 * are the domain's (app/market/orders/cancel.server.ts).
 */
export function CancelFieldset({
  id,
  method,
  result,
  busy,
}: {
  id: string;
  method: string | null;
  result?: CancelAnswer | null;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const values = result?.values;
  return (
    <fieldset className="cancel-form">
      <legend>{t("orders.cancelTitle")}</legend>
      <p className="muted">{t("orders.cancelRules")}</p>
      <label htmlFor={`${id}-reason`}>{t("orders.reason")}</label>
      <input
        id={`${id}-reason`}
        name="reason"
        maxLength={200}
        defaultValue={values?.reason}
        required
        aria-invalid={result?.error === "orders.reasonRequired" ? true : undefined}
      />
      {method === "vbank" ? (
        <div className="refund-account">
          <p className="muted">{t("orders.refundAccountLead")}</p>
          <label htmlFor={`${id}-bank`}>{t("orders.bank")}</label>
          <input id={`${id}-bank`} name="bank" maxLength={40} defaultValue={values?.bank} />
          <label htmlFor={`${id}-account`}>{t("orders.account")}</label>
          <input id={`${id}-account`} name="account" maxLength={40} inputMode="numeric" defaultValue={values?.account} />
          <label htmlFor={`${id}-holder`}>{t("orders.holder")}</label>
          <input id={`${id}-holder`} name="holder" maxLength={40} defaultValue={values?.holder} />
        </div>
      ) : null}
      <p id={`${id}-error`} className="field-error" role="alert">
        {result && !result.ok && result.error ? t(result.error) : ""}
      </p>
      <p className="pay-actions">
        <button type="submit" className="button button-secondary" disabled={busy}>
          {t("orders.cancelSelected")}
        </button>
      </p>
    </fieldset>
  );
}
