import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PromoView } from "../../components/promo-view";
import { useTranslation } from "../../i18n/react";
import { promotionOf, redemptionCount } from "../../market/orders/coupons.server";
import { saveCoupon } from "../../market/orders/promo-coupons.server";
import { findEventRow } from "../../market/publishing/events.server";
import styles from "../../styles/admin-publishing.css";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { Problem } from "../parts";
import { badInput, formRefusal } from "../publishing/common.server";
import { idParam, intentSchema, isoToSeoulLocal, parseCoupon } from "../publishing/forms.server";
import { CouponInputs, PreviewOrSave, PreviewPane, PublishingHead } from "../publishing/parts";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["orders", "price", "promo"] };

export { AdminError as ErrorBoundary } from "../parts";
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

type Values = Record<"code" | "percent" | "starts_at" | "ends_at", string>;

async function eventOf(raw: string | undefined, db: Parameters<typeof findEventRow>[0]) {
  const id = idParam.safeParse(raw ?? "");
  const row = id.success ? await findEventRow(db, id.data) : null;
  if (!row) throw data(null, { status: 404 });
  return row;
}

/** /admin/coupons/:id: the coupon of event :id (code, percentage, period in Asia/Seoul); preview the promo pop-up, then save. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "coupons");
  const row = await eventOf(params.id, context.db);
  const values: Values = {
    code: row.coupon_code ?? "",
    percent: row.discount_percent == null ? "" : String(row.discount_percent),
    starts_at: isoToSeoulLocal(row.starts_at),
    ends_at: isoToSeoulLocal(row.ends_at),
  };
  return {
    id: row.id,
    title: context.locale === "ko" ? row.title_ko : row.title_en,
    test: row.test_only === 1,
    redemptions: row.coupon_code ? await redemptionCount(context.db, row.coupon_code) : 0,
    values,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "coupons");
  const row = await eventOf(params.id, context.db);
  const form = formObject(await request.formData());
  const values: Values = {
    code: form.code ?? "",
    percent: form.percent ?? "",
    starts_at: form.starts_at ?? "",
    ends_at: form.ends_at ?? "",
  };
  const draft = parseCoupon(form);
  if (!draft) return badInput(values, form.percent && !/^\d{1,3}$/.test(form.percent.trim()) ? "COUPON_PERCENT" : "date");
  if (Date.parse(draft.endsAt) <= Date.parse(draft.startsAt)) return badInput(values, "period");
  if (intentSchema.parse(form.intent) === "preview") {
    if (!draft.code || draft.percent === null) return badInput(values, "COUPON_INCOMPLETE");
    const promotion = await promotionOf(context.db, context.locale, {
      ...row,
      coupon_code: draft.code,
      discount_percent: draft.percent,
      ends_at: draft.endsAt,
    });
    return { ok: true as const, values, problem: null, preview: { promotion } };
  }
  const saved = await domainCall(() => formRefusal(() => saveCoupon(context.db, actorOf(op, context), row.id, draft)));
  if (!saved.ok) return badInput(values, saved.code, saved.status);
  throw redirect("/admin/coupons?saved=1");
}

export default function AdminCoupon() {
  const { id, title, test, redemptions, values: stored } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t, i18n } = useTranslation();
  const values = result?.values ?? stored;
  const problem = result && !result.ok ? t(`admin.publishing.problems.${result.problem}`) : null;
  return (
    <main className="admin-page">
      <PublishingHead
        back={{ to: "/admin/coupons", text: t("admin.publishing.coupons.back") }}
        title={t("admin.publishing.coupons.edit", { title })}
      />
      <p>{t("admin.publishing.coupons.rule", { count: redemptions })}</p>
      {test ? <p className="admin-hint">{t("admin.publishing.coupons.testEvent")}</p> : null}
      <Form method="post" className="admin-form" aria-describedby={problem ? "coupon-problem" : undefined}>
        <Problem id="coupon-problem" text={problem} />
        <CouponInputs names={{ code: "code", percent: "percent" }} code={values.code} percent={values.percent} hintId="coupon-hint" />
        <p id="coupon-hint" className="admin-hint">
          {t("admin.publishing.couponHint")}
        </p>
        <label>
          {t("admin.publishing.fields.startsAt")}
          <input type="datetime-local" name="starts_at" required defaultValue={values.starts_at} />
        </label>
        <label>
          {t("admin.publishing.fields.endsAt")}
          <input type="datetime-local" name="ends_at" required defaultValue={values.ends_at} />
        </label>
        <p className="admin-hint">{t("admin.publishing.coupons.periodHint", { id })}</p>
        <PreviewOrSave save={t("admin.publishing.coupons.save")} />
      </Form>
      {result?.ok && result.preview?.promotion ? (
        <PreviewPane>
          <div className="promo-page">
            <PromoView promotion={result.preview.promotion} locale={i18n.language === "ko" ? "ko" : "en"} heading="h2" />
          </div>
        </PreviewPane>
      ) : null}
    </main>
  );
}
