import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { consoleGuide, updateGuide } from "../../market/guide.server";
import supportStyles from "../../styles/admin-support.css";
import { seoulText } from "../../utils/dates";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { formObject, parseGuideForm } from "./forms.server";
import { GUIDE_TEXT_MAX, GUIDE_TITLE_MAX } from "./limits";

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: supportStyles }];

/** /admin/publishing/guide: the six steps of the user guide on /support, in Korean and English, saved together. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const steps = await consoleGuide(context.db);
  return { steps: steps.map((s) => ({ ...s, updatedText: s.updatedAt ? seoulText(s.updatedAt, context.locale, "long") : null })) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "publishing");
  const form = formObject(await request.formData());
  const parsed = parseGuideForm(form);
  if (!parsed.ok) {
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) if (/^(title|text)(Ko|En)[1-6]$/.test(k)) values[k] = v.slice(0, GUIDE_TEXT_MAX * 2);
    return data({ ok: false as const, field: parsed.field, values, changed: 0 }, { status: 400 });
  }
  const changed = await domainCall(() => updateGuide(context.db, parsed.steps, actorOf(op, context)));
  return { ok: true as const, field: null, values: null, changed };
}

const FIELDS = [
  { key: "titleKo", lang: "ko", long: false },
  { key: "titleEn", lang: "en", long: false },
  { key: "textKo", lang: "ko", long: true },
  { key: "textEn", lang: "en", long: true },
] as const;

export default function GuideEditor() {
  const { steps } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  const typed = result && !result.ok ? result.values : null;
  const badStep = result && !result.ok ? Number(result.field.slice(-1)) : null;
  const badKind = result && !result.ok ? (result.field.startsWith("title") ? "title" : "text") : null;
  return (
    <main className="admin-page">
      <h1>{t("admin.support.guide.title")}</h1>
      <p>
        {t("admin.support.guide.lead")}{" "}
        <a href="/support" target="_blank" rel="noreferrer">
          {t("admin.support.guide.open")}
        </a>
      </p>
      {result?.ok ? (
        <p role="status" className="admin-ok">
          {result.changed ? t("admin.support.guide.saved", { count: result.changed }) : t("admin.support.guide.unchanged")}
        </p>
      ) : null}
      <Form method="post" className="admin-support-steps" aria-label={t("admin.support.guide.title")} key={JSON.stringify(steps)}>
        {result && !result.ok ? (
          <p id="guide-problem" role="alert" className="admin-alert">
            {t(badKind === "title" ? "admin.support.guide.problems.title" : "admin.support.guide.problems.text", {
              step: badStep ?? 1,
              max: badKind === "title" ? GUIDE_TITLE_MAX : GUIDE_TEXT_MAX,
            })}
          </p>
        ) : null}
        {steps.map((s) => (
          <fieldset key={s.step}>
            <legend>{t("admin.support.guide.step", { step: s.step })}</legend>
            {FIELDS.map((f) => {
              const name = `${f.key}${s.step}`;
              const value = typed ? (typed[name] ?? "") : s[f.key];
              const invalid = result && !result.ok && result.field === name;
              const common = {
                id: `guide-${name}`,
                name,
                lang: f.lang,
                defaultValue: value,
                "aria-invalid": invalid ? true : undefined,
                "aria-describedby": invalid ? "guide-problem" : undefined,
              };
              return (
                <div key={f.key} className="admin-support-field">
                  <label htmlFor={`guide-${name}`}>{t(`admin.support.guide.fields.${f.key}`)}</label>
                  {f.long ? (
                    <textarea {...common} rows={2} maxLength={GUIDE_TEXT_MAX} />
                  ) : (
                    <input type="text" {...common} required maxLength={GUIDE_TITLE_MAX} />
                  )}
                </div>
              );
            })}
            {s.updatedText ? <p className="admin-support-muted">{t("admin.support.guide.updated", { when: s.updatedText })}</p> : null}
          </fieldset>
        ))}
        <button type="submit">{t("admin.support.guide.submit")}</button>
      </Form>
    </main>
  );
}
