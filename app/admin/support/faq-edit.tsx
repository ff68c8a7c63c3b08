import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { consoleFaq, deleteFaq, setFaqHidden, updateFaq } from "../../market/faq.server";
import supportStyles from "../../styles/admin-support.css";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { FaqFields, type FaqValues } from "./faq-fields";
import { type FaqProblem, faqProblem, faqSchema, formObject, positiveIdSchema } from "./forms.server";

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: supportStyles }];

function faqId(raw: string | undefined): number {
  const id = positiveIdSchema.safeParse(raw);
  if (!id.success) throw data({ code: "FAQ_NOT_FOUND" }, { status: 404 });
  return id.data;
}

/** /admin/publishing/faq/:id: one FAQ entry in both languages to edit, hide or show, or delete. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const faq = await consoleFaq(context.db, faqId(params.id));
  if (!faq) throw data({ code: "FAQ_NOT_FOUND" }, { status: 404 });
  return { faq };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "publishing");
  const id = faqId(params.id);
  const form = formObject(await request.formData());
  const actor = actorOf(op, context);
  if (form.intent === "hide" || form.intent === "show") {
    await domainCall(() => setFaqHidden(context.db, id, form.intent === "hide", actor));
    return { ok: form.intent, problem: null, values: null };
  }
  if (form.intent === "delete") {
    if (form.confirm !== "1") return data({ ok: null, problem: "confirm" as FaqProblem, values: null }, { status: 400 });
    await domainCall(() => deleteFaq(context.db, id, actor));
    return redirect(`/admin/publishing/faq?deleted=${id}`);
  }
  const values: FaqValues = {
    category: form.category ?? "",
    sort: (form.sort ?? "").slice(0, 20),
    questionKo: (form.questionKo ?? "").slice(0, 1000),
    questionEn: (form.questionEn ?? "").slice(0, 1000),
    answerKo: (form.answerKo ?? "").slice(0, 10_000),
    answerEn: (form.answerEn ?? "").slice(0, 10_000),
    hidden: form.hidden === "1" ? "1" : "",
  };
  const parsed = faqSchema.safeParse(form);
  if (form.intent !== "update" || !parsed.success)
    return data(
      { ok: null, problem: parsed.success ? ("invalid" as FaqProblem) : faqProblem(parsed.error.issues), values },
      { status: 400 },
    );
  const current = await consoleFaq(context.db, id);
  await domainCall(() => updateFaq(context.db, id, { ...parsed.data, sort: parsed.data.sort ?? current?.sort ?? 0 }, actor));
  return { ok: "update", problem: null, values: null };
}

export default function FaqEdit() {
  const { faq } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const { t } = useTranslation();
  const values: FaqValues = result?.values ?? {
    category: faq.category,
    sort: String(faq.sort),
    questionKo: faq.questionKo,
    questionEn: faq.questionEn,
    answerKo: faq.answerKo,
    answerEn: faq.answerEn,
    hidden: faq.hidden ? "1" : "",
  };
  const editProblem = result?.problem && result.problem !== "confirm" ? result.problem : null;
  const saved = result?.ok ?? (params.get("created") ? "create" : null);
  return (
    <main className="admin-page">
      <p>
        <Link to="/admin/publishing/faq">{t("admin.support.faq.back")}</Link>
      </p>
      <h1>{t("admin.support.faq.edit.title", { id: faq.id })}</h1>
      <p>
        {faq.hidden ? t("admin.support.faq.edit.isHidden") : t("admin.support.faq.edit.isShown")}{" "}
        {!faq.hidden ? (
          <a href={`/support/detail?id=${faq.id}`} target="_blank" rel="noreferrer">
            {t("admin.support.faq.edit.open")}
          </a>
        ) : null}
      </p>
      {saved ? (
        <p role="status" className="admin-ok">
          {t(`admin.support.faq.saved.${saved}`)}
        </p>
      ) : null}
      <h2 id="faq-edit">{t("admin.support.faq.edit.heading")}</h2>
      <Form
        method="post"
        className="admin-form admin-support-form"
        aria-labelledby="faq-edit"
        key={`${faq.id}-${JSON.stringify(faq)}-${editProblem ?? ""}`}
      >
        <input type="hidden" name="intent" value="update" />
        {editProblem ? (
          <p id="faq-edit-problem" role="alert" className="admin-alert">
            {t(`admin.support.faq.problems.${editProblem}`)}
          </p>
        ) : null}
        <FaqFields values={values} problem={editProblem} idPrefix="faq-edit" />
        <button type="submit">{t("admin.support.faq.edit.submit")}</button>
      </Form>
      <h2 id="faq-visibility">{t("admin.support.faq.edit.visibility")}</h2>
      <Form method="post" className="admin-inline-form" aria-labelledby="faq-visibility">
        <input type="hidden" name="intent" value={faq.hidden ? "show" : "hide"} />
        <button type="submit">{faq.hidden ? t("admin.support.faq.edit.show") : t("admin.support.faq.edit.hide")}</button>
      </Form>
      <h2 id="faq-delete">{t("admin.support.faq.edit.delete")}</h2>
      <Form method="post" className="admin-inline-form admin-support-danger" aria-labelledby="faq-delete">
        <input type="hidden" name="intent" value="delete" />
        {result?.problem === "confirm" ? (
          <p id="faq-delete-problem" role="alert" className="admin-alert">
            {t("admin.support.faq.problems.confirm")}
          </p>
        ) : null}
        <label>
          <input
            type="checkbox"
            name="confirm"
            value="1"
            required
            aria-describedby={result?.problem === "confirm" ? "faq-delete-problem" : undefined}
          />{" "}
          {t("admin.support.faq.edit.confirm")}
        </label>
        <button type="submit">{t("admin.support.faq.edit.deleteSubmit")}</button>
      </Form>
    </main>
  );
}
