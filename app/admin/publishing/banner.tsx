import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { BannerStrip } from "../../components/banners";
import { useTranslation } from "../../i18n/react";
import { toBanner } from "../../market/catalog/landing.server";
import { bannerProblem, findBanner, saveBanner } from "../../market/publishing/banners.server";
import { storePublicImage } from "../../market/publishing/images.server";
import { BANNER_KINDS, PUBLISHING_PAGES } from "../../market/publishing/pages";
import styles from "../../styles/admin-publishing.css";
import { readBoundedForm } from "../../utils/multipart.server";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { badInput, formRefusal } from "./common.server";
import { EVENT_FORM_LIMITS, idParam, intentSchema, parseBanner } from "./forms.server";
import { PreviewOrSave, PreviewPane, Problem } from "./parts";

export { AdminError as ErrorBoundary } from "../parts";
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const FIELDS = ["page", "kind", "title_ko", "title_en", "subtitle_ko", "subtitle_en", "image_path", "link", "visible"] as const;
type Values = Record<(typeof FIELDS)[number], string>;

function target(raw: string | undefined): number | null {
  if (raw === "new") return null;
  const id = idParam.safeParse(raw ?? "");
  if (!id.success) throw data(null, { status: 404 });
  return id.data;
}

/** /admin/publishing/banners/:id (or /new): a key visual or banner of a page; preview it in the storefront's strip, then save. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const id = target(params.id);
  const row = id === null ? null : await findBanner(context.db, id);
  if (id !== null && !row) throw data(null, { status: 404 });
  const values: Values = row
    ? {
        page: row.page,
        kind: row.kind,
        title_ko: row.title_ko,
        title_en: row.title_en,
        subtitle_ko: row.subtitle_ko,
        subtitle_en: row.subtitle_en,
        image_path: row.image_path,
        link: row.link,
        visible: row.visible === 1 ? "1" : "",
      }
    : {
        page: "home",
        kind: "banner",
        title_ko: "",
        title_en: "",
        subtitle_ko: "",
        subtitle_en: "",
        image_path: "",
        link: "/",
        visible: "1",
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
  const file = raw.get("image");
  if (file instanceof File && file.size > 0) {
    const stored = await formRefusal(async () => storePublicImage(context.storage, new Uint8Array(await file.arrayBuffer())));
    if (!stored.ok) return badInput(values, stored.code, stored.status);
    values.image_path = stored.value;
  }
  const draft = parseBanner({ ...form, image_path: values.image_path });
  if (!draft) return badInput(values, "page");
  const problem = bannerProblem(draft);
  if (problem) return badInput(values, problem);
  if (intentSchema.parse(form.intent) === "preview") {
    const banner = toBanner(
      {
        id: id ?? 0,
        kind: draft.kind,
        title_ko: draft.titleKo,
        title_en: draft.titleEn,
        subtitle_ko: draft.subtitleKo,
        subtitle_en: draft.subtitleEn,
        image_path: draft.imagePath,
        link: draft.link,
      },
      context.locale,
    );
    return { ok: true as const, values, problem: null, preview: { banner } };
  }
  const saved = await formRefusal(() => domainCall(() => saveBanner(context.db, actorOf(op, context), id, draft)));
  if (!saved.ok) return badInput(values, saved.code, saved.status);
  throw redirect(`/admin/publishing/banners?page=${draft.page}&saved=1`);
}

export default function AdminBanner() {
  const { id, values: stored } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  const values = result?.values ?? stored;
  const problem = result && !result.ok ? t(`admin.publishing.problems.${result.problem}`) : null;
  return (
    <main className="admin-page">
      <p>
        <Link to="/admin/publishing/banners">{t("admin.publishing.banners.back")}</Link>
      </p>
      <h1>{id === null ? t("admin.publishing.banners.new") : t("admin.publishing.banners.edit", { id })}</h1>
      <Form method="post" encType="multipart/form-data" className="admin-form" aria-describedby={problem ? "banner-problem" : undefined}>
        <Problem id="banner-problem" text={problem} />
        <label>
          {t("admin.publishing.fields.page")}
          <select name="page" defaultValue={values.page}>
            {PUBLISHING_PAGES.map((p) => (
              <option key={p} value={p}>
                {t(`admin.publishing.pages.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("admin.publishing.fields.kind")}
          <select name="kind" defaultValue={values.kind}>
            {BANNER_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`admin.publishing.kinds.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("admin.publishing.fields.titleKo")}
          <input name="title_ko" lang="ko" required maxLength={120} defaultValue={values.title_ko} />
        </label>
        <label>
          {t("admin.publishing.fields.titleEn")}
          <input name="title_en" lang="en" required maxLength={120} defaultValue={values.title_en} />
        </label>
        <label>
          {t("admin.publishing.fields.subtitleKo")}
          <input name="subtitle_ko" lang="ko" maxLength={200} defaultValue={values.subtitle_ko} />
        </label>
        <label>
          {t("admin.publishing.fields.subtitleEn")}
          <input name="subtitle_en" lang="en" maxLength={200} defaultValue={values.subtitle_en} />
        </label>
        <label>
          {t("admin.publishing.fields.link")}
          <input name="link" required maxLength={500} defaultValue={values.link} aria-describedby="banner-link-hint" />
        </label>
        <p id="banner-link-hint" className="admin-hint">
          {t("admin.publishing.banners.linkHint")}
        </p>
        <fieldset>
          <legend>{t("admin.publishing.fields.image")}</legend>
          {values.image_path ? (
            <img className="publishing-thumb" src={values.image_path} alt={t("admin.publishing.events.currentImage")} />
          ) : null}
          <input type="hidden" name="image_path" value={values.image_path} />
          <label>
            {t("admin.publishing.fields.imageFile")}
            <input type="file" name="image" accept="image/png,image/jpeg" aria-describedby="banner-image-hint" />
          </label>
          <p id="banner-image-hint" className="admin-hint">
            {t("admin.publishing.imageHint")}
          </p>
        </fieldset>
        <label className="publishing-check">
          <input type="checkbox" name="visible" value="1" defaultChecked={values.visible === "1"} /> {t("admin.publishing.fields.visible")}
        </label>
        <PreviewOrSave save={t("admin.publishing.banners.save")} />
      </Form>
      {result?.ok && result.preview ? (
        <PreviewPane>
          <BannerStrip banners={[result.preview.banner]} label={t("admin.publishing.preview.heading")} />
        </PreviewPane>
      ) : null}
    </main>
  );
}
