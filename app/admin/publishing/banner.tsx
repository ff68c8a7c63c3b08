import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { BannerStrip } from "../../components/banners";
import { useTranslation } from "../../i18n/react";
import { toBanner } from "../../market/catalog/landing.server";
import { bannerProblem, findBanner, saveBanner } from "../../market/publishing/banners.server";
import styles from "../../styles/admin-publishing.css";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { Problem } from "../parts";
import { badInput, editTarget, formRefusal, readPictureForm } from "./common.server";
import { intentSchema, parseBanner } from "./forms.server";
import { ImageField, KindSelect, PageSelect, PreviewOrSave, PreviewPane, PublishingHead, TitleFields } from "./parts";

export { AdminError as ErrorBoundary } from "../parts";
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const FIELDS = ["page", "kind", "title_ko", "title_en", "subtitle_ko", "subtitle_en", "image_path", "link", "visible"] as const;
type Values = Record<(typeof FIELDS)[number], string>;

/** /admin/publishing/banners/:id (or /new): a key visual or banner of a page; preview it in the storefront's strip, then save. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const id = editTarget(params.id);
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
  const id = editTarget(params.id);
  const read = await readPictureForm(request, context.storage, FIELDS);
  if (!read.ok) return read.answer;
  const { form, values } = read;
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
  const saved = await domainCall(() => formRefusal(() => saveBanner(context.db, actorOf(op, context), id, draft)));
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
      <PublishingHead
        back={{ to: "/admin/publishing/banners", text: t("admin.publishing.banners.back") }}
        title={id === null ? t("admin.publishing.banners.new") : t("admin.publishing.banners.edit", { id })}
      />
      <Form method="post" encType="multipart/form-data" className="admin-form" aria-describedby={problem ? "banner-problem" : undefined}>
        <Problem id="banner-problem" text={problem} />
        <PageSelect value={values.page} />
        <KindSelect value={values.kind} />
        <TitleFields values={values} maxLength={120} />
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
        <ImageField idPrefix="banner" path={values.image_path} />
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
