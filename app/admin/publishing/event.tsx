import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { EventArticle } from "../../components/event-article";
import { useTranslation } from "../../i18n/react";
import { eventProblem, findEventRow, previewEvent, saveEvent } from "../../market/publishing/events.server";
import { storePublicImage } from "../../market/publishing/images.server";
import styles from "../../styles/admin-publishing.css";
import { readBoundedForm } from "../../utils/multipart.server";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { badInput, formRefusal } from "./common.server";
import { EVENT_FORM_LIMITS, idParam, intentSchema, isoToSeoulLocal, parseEvent } from "./forms.server";
import { PreviewOrSave, PreviewPane, Problem } from "./parts";

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

function target(raw: string | undefined): number | null {
  if (raw === "new") return null;
  const id = idParam.safeParse(raw ?? "");
  if (!id.success) throw data(null, { status: 404 });
  return id.data;
}

/**
 * /admin/publishing/events/:id (or /new): an event in both languages, its period in Asia/Seoul, the test flag, the
 * picture (PNG or JPEG, checked by its bytes) and the coupon; preview the event page, then save.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const id = target(params.id);
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
  const id = target(params.id);
  const { form: raw, oversized, truncated } = await readBoundedForm(request, EVENT_FORM_LIMITS);
  const form = formObject(raw);
  const values = Object.fromEntries(FIELDS.map((f) => [f, form[f] ?? ""])) as Values;
  if (truncated || oversized.some((name) => name !== "image")) return badInput(values, "tooLarge", 413);
  if (oversized.includes("image")) return badInput(values, "IMAGE_TOO_LARGE");
  // A picture sent with this post replaces the one named so far; it is stored now (named by its content) so the
  // preview can show it, and is published only when a saved event names it.
  const file = raw.get("image");
  if (file instanceof File && file.size > 0) {
    const stored = await formRefusal(async () => storePublicImage(context.storage, new Uint8Array(await file.arrayBuffer())));
    if (!stored.ok) return badInput(values, stored.code, stored.status);
    values.image_path = stored.value;
  }
  const draft = parseEvent({ ...form, image_path: values.image_path });
  if (!draft) return badInput(values, form.discount_percent && !/^\d{1,3}$/.test(form.discount_percent.trim()) ? "COUPON_PERCENT" : "date");
  const problem = eventProblem(draft);
  if (problem) return badInput(values, problem);
  if (intentSchema.parse(form.intent) === "preview") {
    return { ok: true as const, values, problem: null, preview: { event: previewEvent(draft, context.locale) } };
  }
  const saved = await formRefusal(() => domainCall(() => saveEvent(context.db, actorOf(op, context), id, draft)));
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
      <p>
        <Link to="/admin/publishing/events">{t("admin.publishing.events.back")}</Link>
      </p>
      <h1>{id === null ? t("admin.publishing.events.new") : t("admin.publishing.events.edit", { id })}</h1>
      <Form method="post" encType="multipart/form-data" className="admin-form" aria-describedby={problem ? "event-problem" : undefined}>
        <Problem id="event-problem" text={problem} />
        <label>
          {t("admin.publishing.fields.titleKo")}
          <input name="title_ko" lang="ko" required maxLength={200} defaultValue={values.title_ko} />
        </label>
        <label>
          {t("admin.publishing.fields.titleEn")}
          <input name="title_en" lang="en" required maxLength={200} defaultValue={values.title_en} />
        </label>
        <label>
          {t("admin.publishing.fields.bodyKo")}
          <textarea name="body_ko" lang="ko" required rows={8} defaultValue={values.body_ko} />
        </label>
        <label>
          {t("admin.publishing.fields.bodyEn")}
          <textarea name="body_en" lang="en" required rows={8} defaultValue={values.body_en} />
        </label>
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
        <fieldset>
          <legend>{t("admin.publishing.fields.image")}</legend>
          {values.image_path ? (
            <img className="publishing-thumb" src={values.image_path} alt={t("admin.publishing.events.currentImage")} />
          ) : null}
          <input type="hidden" name="image_path" value={values.image_path} />
          <label>
            {t("admin.publishing.fields.imageFile")}
            <input type="file" name="image" accept="image/png,image/jpeg" aria-describedby="event-image-hint" />
          </label>
          <p id="event-image-hint" className="admin-hint">
            {t("admin.publishing.imageHint")}
          </p>
        </fieldset>
        <fieldset>
          <legend>{t("admin.publishing.fields.coupon")}</legend>
          <label>
            {t("admin.publishing.fields.couponCode")}
            <input
              name="coupon_code"
              maxLength={30}
              autoComplete="off"
              defaultValue={values.coupon_code}
              aria-describedby="event-coupon-hint"
            />
          </label>
          <label>
            {t("admin.publishing.fields.discountPercent")}
            <input name="discount_percent" inputMode="numeric" pattern="[0-9]*" maxLength={2} defaultValue={values.discount_percent} />
          </label>
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
