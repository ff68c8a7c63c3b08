import { useTranslation } from "../../i18n/react";
import { SUPPORT_CATEGORIES } from "../../market/support-rules";

/** What an FAQ form holds (typed text kept as typed). */
export type FaqValues = Partial<Record<"category" | "sort" | "questionKo" | "questionEn" | "answerKo" | "answerEn" | "hidden", string>>;

/** The limits the forms show (the server's schema checks them: app/admin/support/forms.server.ts). */
export const FAQ_LIMITS = { question: 300, answer: 4000 };

/**
 * An FAQ entry's fields in both languages, for the add and edit forms; `problem` names the field the server
 * refused (it is marked invalid and described by the form's message).
 */
export function FaqFields({ values, problem, idPrefix }: { values: FaqValues; problem: string | null; idPrefix: string }) {
  const { t } = useTranslation();
  const invalid = (name: string) => (problem === name ? { "aria-invalid": true, "aria-describedby": `${idPrefix}-problem` } : {});
  return (
    <>
      <label>
        {t("admin.support.faq.fields.category")}
        <select name="category" required defaultValue={values.category ?? ""} {...invalid("category")}>
          <option value="">{t("admin.support.faq.fields.chooseCategory")}</option>
          {SUPPORT_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`admin.support.categories.${c}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("admin.support.faq.fields.questionKo")}
        <input
          type="text"
          name="questionKo"
          lang="ko"
          required
          maxLength={FAQ_LIMITS.question}
          defaultValue={values.questionKo ?? ""}
          {...invalid("questionKo")}
        />
      </label>
      <label>
        {t("admin.support.faq.fields.answerKo")}
        <textarea
          name="answerKo"
          lang="ko"
          required
          maxLength={FAQ_LIMITS.answer}
          rows={5}
          defaultValue={values.answerKo ?? ""}
          {...invalid("answerKo")}
        />
      </label>
      <label>
        {t("admin.support.faq.fields.questionEn")}
        <input
          type="text"
          name="questionEn"
          lang="en"
          required
          maxLength={FAQ_LIMITS.question}
          defaultValue={values.questionEn ?? ""}
          {...invalid("questionEn")}
        />
      </label>
      <label>
        {t("admin.support.faq.fields.answerEn")}
        <textarea
          name="answerEn"
          lang="en"
          required
          maxLength={FAQ_LIMITS.answer}
          rows={5}
          defaultValue={values.answerEn ?? ""}
          {...invalid("answerEn")}
        />
      </label>
      <label>
        {t("admin.support.faq.fields.sort")}
        <input
          type="text"
          name="sort"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={6}
          defaultValue={values.sort ?? ""}
          aria-describedby={`${idPrefix}-sort-hint`}
          {...invalid("sort")}
        />
      </label>
      <p id={`${idPrefix}-sort-hint`} className="admin-hint">
        {t("admin.support.faq.fields.sortHint")}
      </p>
      <label>
        <span>
          <input type="checkbox" name="hidden" value="1" defaultChecked={values.hidden === "1"} /> {t("admin.support.faq.fields.hidden")}
        </span>
      </label>
    </>
  );
}
