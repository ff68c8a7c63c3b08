import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { EventArticle } from "../../components/event-article";
import { useTranslation } from "../../i18n/react";
import { eventProblem, findEventRow, previewEvent, saveEvent } from "../../market/publishing/events.server";
import styles from "../../styles/admin-publishing.css";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { Problem } from "../parts";
import { badInput, editTarget, formRefusal, readPictureForm } from "./common.server";
import { intentSchema, isoToSeoulLocal, parseEvent } from "./forms.server";
import { BodyFields, CouponInputs, ImageField, PreviewOrSave, PreviewPane, PublishingHead, TitleFields } from "./parts";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["event"] };

export { AdminError as ErrorBoundary } from "../parts";
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const FIELDS = [
  "title_ko",
  "title_en",
  "body_ko",
  "body_en",
  "image_path",
  "coupon_code",
  "discount_percent",
  "test_only",
  "starts_at",
  "ends_at",
] as const;
type Values = Record<(typeof FIELDS)[number], string>;

/**
 * /admin/publishing/events/:id (or /new): an event in both languages, its period in Asia/Seoul, the test flag, the
 * picture (PNG or JPEG, checked by its bytes) and the coupon; preview the event page, then save.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const id = editTarget(params.id);
  const row = id === null ? null : await findEventRow(context.db, id);
  if (id !== null && !row) throw data(null, { status: 404 });
  const now = Date.now();
  const values: Values = row
    ? {
        title_ko: row.title_ko,
        title_en: row.title_en,
        body_ko: row.body_ko,
        body_en: row.body_en,
        image_path: row.image_path ?? "",
        coupon_code: row.coupon_code ?? "",
        discount_percent: row.discount_percent == null ? "" : String(row.discount_percent),
        test_only: row.test_only === 1 ? "1" : "",
        starts_at: isoToSeoulLocal(row.starts_at),
        ends_at: isoToSeoulLocal(row.ends_at),
      }
    : {
        title_ko: "",
        title_en: "",
        body_ko: "",
        body_en: "",
        image_path: "",
        coupon_code: "",
        discount_percent: "",
        test_only: "",
        starts_at: isoToSeoulLocal(new Date(now).toISOString()),
        ends_at: isoToSeoulLocal(new Date(now + 14 * 86_400_000).toISOString()),
      };
  return { id, values };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "publishing");
  const id = editTarget(params.id);
  const read = await readPictureForm(request, context.storage, FIELDS);
  if (!read.ok) return read.answer;
  const { form, values } = read;
  const draft = parseEvent({ ...form, image_path: values.image_path });
  if (!draft) return badInput(values, form.discount_percent && !/^\d{1,3}$/.test(form.discount_percent.trim()) ? "COUPON_PERCENT" : "date");
  const problem = eventProblem(draft);
  if (problem) return badInput(values, problem);
  if (intentSchema.parse(form.intent) === "preview") {
    return { ok: true as const, values, problem: null, preview: { event: previewEvent(draft, context.locale) } };
  }
  const saved = await domainCall(() => formRefusal(() => saveEvent(context.db, actorOf(op, context), id, draft)));
  if (!saved.ok) return badInput(values, saved.code, saved.status);
  throw redirect("/admin/publishing/events?saved=1");
}

export default function AdminEvent() {
  const { id, values: stored } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  const values = result?.values ?? stored;
  const problem = result && !result.ok ? t(`admin.publishing.problems.${result.problem}`) : null;
  return (
    <main className="admin-page">
      <PublishingHead
        back={{ to: "/admin/publishing/events", text: t("admin.publishing.events.back") }}
        title={id === null ? t("admin.publishing.events.new") : t("admin.publishing.events.edit", { id })}
      />
      <Form method="post" encType="multipart/form-data" className="admin-form" aria-describedby={problem ? "event-problem" : undefined}>
        <Problem id="event-problem" text={problem} />
        <TitleFields values={values} maxLength={200} />
        <BodyFields values={values} />
        <fieldset>
          <legend>{t("admin.publishing.events.period")}</legend>
          <label>
            {t("admin.publishing.fields.startsAt")}
            <input type="datetime-local" name="starts_at" required defaultValue={values.starts_at} />
          </label>
          <label>
            {t("admin.publishing.fields.endsAt")}
            <input type="datetime-local" name="ends_at" required defaultValue={values.ends_at} />
          </label>
          <p className="admin-hint">{t("admin.publishing.seoulHint")}</p>
        </fieldset>
        <label className="publishing-check">
          <input type="checkbox" name="test_only" value="1" defaultChecked={values.test_only === "1"} />{" "}
          {t("admin.publishing.fields.testOnly")}
        </label>
        <p className="admin-hint">{t("admin.publishing.events.testHint")}</p>
        <ImageField idPrefix="event" path={values.image_path} />
        <fieldset>
          <legend>{t("admin.publishing.fields.coupon")}</legend>
          <CouponInputs
            names={{ code: "coupon_code", percent: "discount_percent" }}
            code={values.coupon_code}
            percent={values.discount_percent}
            hintId="event-coupon-hint"
          />
          <p id="event-coupon-hint" className="admin-hint">
            {t("admin.publishing.couponHint")}
          </p>
        </fieldset>
        <PreviewOrSave save={t("admin.publishing.events.save")} />
      </Form>
      {result?.ok && result.preview ? (
        <PreviewPane>
          <EventArticle event={result.preview.event} backTo="/event" heading="h2" />
        </PreviewPane>
      ) : null}
    </main>
  );
}
