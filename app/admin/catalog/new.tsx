import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { createContent } from "../../market/catalog/create.server";
import { CONTENT_TYPES } from "../../market/catalog/kinds";
import { taxonomyOptions } from "../../market/catalog/manage.server";
import { MEDIA_FORM_LIMITS } from "../../market/catalog/media-files.server";
import catalogStyles from "../../styles/admin-catalog.css";
import { readBoundedForm } from "../../utils/multipart.server";
import { formObject } from "../forms.server";
import { actorOf, requireOperator } from "../guard.server";
import { ContentFields } from "./fields";
import { itemTypeSchema, parseContentForm } from "./forms.server";

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: catalogStyles }];

/**
 * /admin/catalog/new (catalog, admin): a new item of any type with its media file. The file is checked by its bytes
 * and kept in private storage; the previews are made in the background, and the new item's page shows the progress.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "catalog");
  const locale = context.locale;
  const all = await Promise.all(CONTENT_TYPES.map(async (type) => ({ type, options: await taxonomyOptions(context.db, type) })));
  const name = (o: { id: number; nameKo: string; nameEn: string }) => (locale === "ko" ? o.nameKo : o.nameEn);
  const audio = all.find((a) => a.type === "audio")?.options;
  return {
    categories: all.map((a) => ({ type: a.type, terms: a.options.categories.map((o) => ({ id: o.id, name: name(o) })) })),
    genres: (audio?.genres ?? []).map((o) => ({ id: o.id, name: name(o) })),
    moods: (audio?.moods ?? []).map((o) => ({ id: o.id, name: name(o) })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "catalog");
  const { form, oversized, truncated } = await readBoundedForm(request, MEDIA_FORM_LIMITS);
  const fields = formObject(form);
  const values = { ...fields };
  const refuse = (problem: string) => data({ problem, values }, { status: 400 });
  // Past the file limit the file is read past, not kept; past the body limit reading stops: either way, too large.
  if (truncated || oversized.includes("file")) return refuse("fileTooLarge");
  const type = itemTypeSchema.safeParse(fields.type);
  if (!type.success) return refuse("type");
  const parsed = parseContentForm(fields);
  if (!parsed.ok) return refuse(parsed.problem);
  const file = form.get("file");
  const bytes = file instanceof File && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : null;
  const made = await createContent(context.db, context.storage, actorOf(op, context), {
    type: type.data,
    input: parsed.input,
    file: bytes,
  });
  if (!made.ok) return refuse(made.problem);
  return redirect(`/admin/catalog/${made.id}`);
}

export default function CatalogNew() {
  const { categories, genres, moods } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const values: Record<string, string> = answer?.values ?? {};
  const categoryOptions = categories.flatMap((c) =>
    c.terms.map((term) => ({ id: term.id, name: `${t(`admin.catalog.types.${c.type}`)} · ${term.name}` })),
  );
  return (
    <main className="admin-page">
      <p>
        <Link to="/admin/catalog">{t("admin.catalog.item.back")}</Link>
      </p>
      <h1>{t("admin.catalog.new.title")}</h1>
      <p>{t("admin.catalog.new.lead")}</p>
      <Form method="post" encType="multipart/form-data" className="catalog-form" aria-describedby={answer ? "new-problem" : undefined}>
        {answer ? (
          <p id="new-problem" role="alert" className="admin-alert">
            {t(`admin.catalog.problems.${answer.problem}`)}
          </p>
        ) : null}
        <fieldset>
          <legend>{t("admin.catalog.new.fileLegend")}</legend>
          <div className="catalog-grid">
            <label>
              {t("admin.catalog.new.type")}
              <select name="type" required defaultValue={values.type ?? "video"}>
                {CONTENT_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`admin.catalog.types.${type}`)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t("admin.catalog.fields.file")}
              <input
                type="file"
                name="file"
                accept=".mp4,video/mp4,.mp3,audio/mpeg,.wav,audio/wav,.png,image/png,.svg,image/svg+xml,.ttf,.otf,font/ttf,font/otf"
                aria-describedby="file-hint"
              />
            </label>
            <p id="file-hint" className="admin-hint wide">
              {t("admin.catalog.new.fileHint")}
            </p>
          </div>
        </fieldset>
        <ContentFields values={values} options={{ categories: categoryOptions, genres, moods }} audio />
        <p className="admin-hint">{t("admin.catalog.new.audioHint")}</p>
        <button type="submit" disabled={busy} aria-busy={busy}>
          {t("admin.catalog.new.submit")}
        </button>
      </Form>
    </main>
  );
}
