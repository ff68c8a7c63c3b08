import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "../../i18n/react";
import { replaceMediaFile } from "../../market/catalog/create.server";
import {
  addToPackage,
  catalogItem,
  packageContents,
  packageSale,
  removeFromPackage,
  setContentStatus,
  taxonomyOptions,
  updateContent,
} from "../../market/catalog/manage.server";
import { MEDIA_FORM_LIMITS } from "../../market/catalog/media-files.server";
import { latestMediaJob, mediaPeaks, retryMediaJob } from "../../market/catalog/media-jobs.server";
import { formatMoney } from "../../market/money";
import catalogStyles from "../../styles/admin-catalog.css";
import { seoulText } from "../../utils/dates";
import { readBoundedForm } from "../../utils/multipart.server";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { TableScroll } from "../parts";
import { ContentFields, valuesOf } from "./fields";
import { idParam, packageAddSchema, packageRemoveSchema, parseContentForm, statusSchema } from "./forms.server";

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: catalogStyles }];

/**
 * /admin/catalog/:id (catalog, admin): one item of any type: its previews and their media job's progress, its fields
 * (titles, descriptions, tags, prices, taxonomy, audio's kind and BPM), discontinue and restore, and for a package
 * the items it bundles.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "catalog");
  const id = idParam.safeParse(params.id);
  const item = id.success ? await catalogItem(context.db, id.data) : null;
  if (!item) throw data(null, { status: 404 });
  const locale = context.locale;
  const name = (o: { id: number; nameKo: string; nameEn: string }) => ({ id: o.id, name: locale === "ko" ? o.nameKo : o.nameEn });
  const [options, bundle, job, peaks, sale] = await Promise.all([
    taxonomyOptions(context.db, item.contents_type),
    item.contents_type === "package" ? packageContents(context.db, item.id) : Promise.resolve([]),
    latestMediaJob(context.db, item.id),
    item.contents_type === "audio" ? mediaPeaks(context.storage, item.code) : Promise.resolve(null),
    item.contents_type === "package" ? packageSale(context.db, item.id) : Promise.resolve(null),
  ]);
  return {
    item: {
      id: item.id,
      code: item.code,
      type: item.contents_type,
      status: item.status,
      title: locale === "ko" ? item.title_ko : item.title_en,
      previewPath: item.preview_path,
      posterPath: item.poster_path,
      fontFamily: item.font_family,
      filePath: item.file_path,
      released: seoulText(item.released_at, locale, "date"),
      storefront: `/contents/${item.contents_type}?code=${encodeURIComponent(item.code)}`,
    },
    values: valuesOf(item),
    options: { categories: options.categories.map(name), genres: options.genres.map(name), moods: options.moods.map(name) },
    bundle: bundle.map((b) => ({ id: b.id, code: b.code, type: b.type, title: locale === "ko" ? b.titleKo : b.titleEn, status: b.status })),
    job: job
      ? {
          state: job.state,
          progress: job.progress,
          error: job.error,
          problem: job.problem,
          finished: seoulText(job.finishedAt, locale, "long"),
        }
      : null,
    peaks,
    // What the store sells the package for while some of its items are discontinued (the storefront's own rule).
    sale:
      sale && sale.left < sale.count
        ? {
            left: sale.left,
            count: sale.count,
            krw: sale.krw === null ? null : formatMoney(sale.krw, "KRW", locale),
            usd: sale.usd === null ? null : formatMoney(sale.usd, "USD", locale),
          }
        : null,
  };
}

type Done = "saved" | "discontinued" | "restored" | "added" | "removed" | "retried" | "replaced" | "unchanged";
type Answer =
  | { ok: true; done: Done; form: string }
  | { ok: false; form: "update" | "package" | "status" | "media"; problem: string; values: Record<string, string> };

export async function action({ request, params, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "catalog");
  const id = idParam.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const actor = actorOf(op, context);
  const { form: body, oversized, truncated } = await readBoundedForm(request, MEDIA_FORM_LIMITS);
  const form = formObject(body);
  const reply = (answer: Answer, status = 200) => data(answer, { status });
  switch (form.intent) {
    case "update": {
      const parsed = parseContentForm(form);
      if (!parsed.ok) return reply({ ok: false, form: "update", problem: parsed.problem, values: form }, 400);
      const result = await domainCall(() => updateContent(context.db, actor, id.data, parsed.input));
      if (!result.ok) return reply({ ok: false, form: "update", problem: result.problem, values: form }, 400);
      return reply({ ok: true, done: "saved", form: "update" });
    }
    case "discontinue":
    case "restore": {
      const parsed = statusSchema.safeParse(form);
      if (!parsed.success) return reply({ ok: false, form: "status", problem: "reason", values: form }, 400);
      const status = parsed.data.intent === "discontinue" ? "discontinued" : "active";
      const changed = await domainCall(() => setContentStatus(context.db, actor, id.data, status, parsed.data.reason || null));
      return reply({ ok: true, done: changed ? (status === "active" ? "restored" : "discontinued") : "unchanged", form: "status" });
    }
    case "package-add": {
      const parsed = packageAddSchema.safeParse(form);
      if (!parsed.success) return reply({ ok: false, form: "package", problem: "unknown", values: form }, 400);
      const result = await domainCall(() => addToPackage(context.db, actor, id.data, parsed.data.code));
      if (!result.ok)
        return reply({ ok: false, form: "package", problem: result.problem, values: form }, result.problem === "already" ? 409 : 400);
      return reply({ ok: true, done: "added", form: "package" });
    }
    case "package-remove": {
      const parsed = packageRemoveSchema.safeParse(form);
      if (!parsed.success) return reply({ ok: false, form: "package", problem: "unknown", values: {} }, 400);
      const removed = await domainCall(() => removeFromPackage(context.db, actor, id.data, parsed.data.contentId));
      return reply({ ok: true, done: removed ? "removed" : "unchanged", form: "package" });
    }
    case "media-replace": {
      if (truncated || oversized.includes("file")) return reply({ ok: false, form: "media", problem: "fileTooLarge", values: {} }, 400);
      const file = body.get("file");
      const bytes = file instanceof File && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : null;
      const result = await domainCall(() => replaceMediaFile(context.db, context.storage, actor, id.data, bytes));
      if (!result.ok) return reply({ ok: false, form: "media", problem: result.problem, values: {} }, 400);
      return reply({ ok: true, done: "replaced", form: "media" });
    }
    case "retry-media": {
      const retried = await retryMediaJob(context.db, actor, id.data);
      return reply({ ok: true, done: retried ? "retried" : "unchanged", form: "media" });
    }
    default:
      return reply({ ok: false, form: "update", problem: "intent", values: {} }, 400);
  }
}

/** The waveform from its peaks: one bar per peak, mirrored about the middle. */
function Waveform({ peaks, label }: { peaks: number[]; label: string }) {
  const width = peaks.length;
  return (
    <svg className="catalog-wave" viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" role="img" aria-label={label}>
      <path
        d={peaks.map((p, i) => `M${i + 0.5} ${50 - Math.max(0.5, p * 48)}V${50 + Math.max(0.5, p * 48)}`).join("")}
        stroke="currentColor"
        strokeWidth={0.7}
      />
    </svg>
  );
}

export default function CatalogItem() {
  const { item, values, options, bundle, job, peaks, sale } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as Answer | undefined;
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const revalidator = useRevalidator();
  const working = job?.state === "queued" || job?.state === "running";
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 1500);
    return () => clearInterval(timer);
  }, [working, revalidator]);
  const failed = answer && !answer.ok ? answer : null;
  const shown = failed?.form === "update" ? { ...values, ...failed.values } : values;
  return (
    <main className="admin-page">
      <p>
        <Link to="/admin/catalog">{t("admin.catalog.item.back")}</Link>
      </p>
      <h1>
        {item.title} <small>({item.code})</small>
      </h1>
      <p>
        {t(`admin.catalog.types.${item.type}`)} · {t("admin.catalog.fields.released")} {item.released} ·{" "}
        <span className={item.status === "active" ? undefined : "catalog-discontinued"}>{t(`admin.catalog.statuses.${item.status}`)}</span>{" "}
        · <a href={item.storefront}>{t("admin.catalog.item.storefront")}</a>
      </p>
      {answer?.ok && answer.done !== "unchanged" ? (
        <p role="status" className="admin-ok">
          {t(`admin.catalog.done.${answer.done}`)}
        </p>
      ) : null}

      <h2>{t("admin.catalog.item.media")}</h2>
      <div className="catalog-media">
        {item.type === "video" && item.previewPath ? (
          <video
            src={item.previewPath}
            poster={item.posterPath ?? undefined}
            controls
            muted
            preload="none"
            aria-label={t("admin.catalog.item.previewOf", { title: item.title })}
          />
        ) : item.posterPath ? (
          <img src={item.posterPath} alt={t("admin.catalog.item.previewOf", { title: item.title })} />
        ) : null}
        {item.type === "audio" && item.previewPath ? (
          <div>
            {peaks?.length ? <Waveform peaks={peaks} label={t("admin.catalog.item.waveformOf", { title: item.title })} /> : null}
            {/* biome-ignore lint/a11y/useMediaCaption: a music preview has no speech to caption */}
            <audio src={item.previewPath} controls preload="none" aria-label={t("admin.catalog.item.previewOf", { title: item.title })} />
          </div>
        ) : null}
        {item.type === "font" && item.filePath ? <p>{t("admin.catalog.item.fontPreview", { family: item.fontFamily ?? "" })}</p> : null}
        {!item.previewPath && !item.posterPath && item.type !== "font" ? <p>{t("admin.catalog.item.noPreview")}</p> : null}
      </div>
      {job ? (
        <section className="catalog-job" aria-labelledby="job-heading">
          <h3 id="job-heading">{t("admin.catalog.job.heading")}</h3>
          <p role="status" data-testid="media-job-state">
            {t(`admin.catalog.job.states.${job.state}`)}
            {job.state === "done" && job.finished ? ` · ${job.finished}` : ""}
          </p>
          {working ? (
            <>
              <label htmlFor="job-progress">{t("admin.catalog.job.progress", { progress: job.progress })}</label>
              <progress id="job-progress" max={100} value={job.progress}>
                {job.progress}%
              </progress>
              <noscript>
                <a href={`/admin/catalog/${item.id}`}>{t("admin.catalog.job.refresh")}</a>
              </noscript>
            </>
          ) : null}
          {job.state === "failed" ? (
            <>
              <p className="admin-alert">
                {t("admin.catalog.job.failed", { error: job.problem ? t(`admin.catalog.problems.${job.problem}`) : (job.error ?? "") })}
              </p>
              <Form method="post">
                <input type="hidden" name="intent" value="retry-media" />
                <button type="submit" disabled={busy}>
                  {t("admin.catalog.job.retry")}
                </button>
              </Form>
            </>
          ) : null}
        </section>
      ) : null}

      <Form method="post" encType="multipart/form-data" className="admin-inline-form catalog-upload">
        <input type="hidden" name="intent" value="media-replace" />
        <p>{item.filePath ? t("admin.catalog.media.current", { file: item.filePath }) : t("admin.catalog.media.none")}</p>
        <label>
          {item.filePath ? t("admin.catalog.media.replace") : t("admin.catalog.media.upload")}
          <input
            type="file"
            name="file"
            required
            aria-invalid={failed?.form === "media" ? true : undefined}
            aria-describedby={failed?.form === "media" ? "media-problem" : undefined}
          />
        </label>
        <button type="submit" disabled={busy}>
          {t("admin.catalog.media.submit")}
        </button>
      </Form>
      {failed?.form === "media" ? (
        <p id="media-problem" role="alert" className="admin-alert">
          {t(`admin.catalog.problems.${failed.problem}`)}
        </p>
      ) : null}

      <h2 id="edit-heading">{t("admin.catalog.edit.heading")}</h2>
      <Form method="post" className="catalog-form" aria-labelledby="edit-heading" key={answer?.ok ? JSON.stringify(values) : "edit"}>
        <input type="hidden" name="intent" value="update" />
        {failed?.form === "update" ? (
          <p role="alert" className="admin-alert">
            {t(`admin.catalog.problems.${failed.problem}`)}
          </p>
        ) : null}
        <ContentFields values={shown} options={options} audio={item.type === "audio"} />
        <button type="submit" disabled={busy}>
          {t("admin.catalog.edit.save")}
        </button>
      </Form>

      {item.type === "package" ? (
        <>
          <h2>{t("admin.catalog.package.heading")}</h2>
          {sale ? (
            <p className="notice-box" data-testid="package-sale">
              {sale.krw === null || sale.usd === null
                ? t("admin.catalog.package.noneLeft")
                : t("admin.catalog.package.sale", { left: sale.left, count: sale.count, krw: sale.krw, usd: sale.usd })}
            </p>
          ) : null}
          {bundle.length === 0 ? (
            <p>{t("admin.catalog.package.empty")}</p>
          ) : (
            <TableScroll>
              <table className="admin-table">
                <caption>{t("admin.catalog.package.caption")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("admin.catalog.fields.code")}</th>
                    <th scope="col">{t("admin.catalog.fields.title")}</th>
                    <th scope="col">{t("admin.catalog.fields.type")}</th>
                    <th scope="col">{t("admin.catalog.fields.status")}</th>
                    <th scope="col">{t("admin.catalog.package.actions")}</th>
                  </tr>
                </thead>
                <tbody>
                  {bundle.map((b) => (
                    <tr key={b.id}>
                      <td>
                        <Link to={`/admin/catalog/${b.id}`}>{b.code}</Link>
                      </td>
                      <td>{b.title}</td>
                      <td>{t(`admin.catalog.types.${b.type}`)}</td>
                      <td>{t(`admin.catalog.statuses.${b.status}`)}</td>
                      <td>
                        <Form method="post" className="admin-inline-form">
                          <input type="hidden" name="intent" value="package-remove" />
                          <input type="hidden" name="contentId" value={b.id} />
                          <button type="submit" disabled={busy} aria-label={t("admin.catalog.package.removeOf", { code: b.code })}>
                            {t("admin.catalog.package.remove")}
                          </button>
                        </Form>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          <Form method="post" className="admin-inline-form">
            <input type="hidden" name="intent" value="package-add" />
            <label>
              {t("admin.catalog.package.code")}
              <input
                name="code"
                required
                maxLength={30}
                defaultValue={failed?.form === "package" ? failed.values.code : ""}
                aria-invalid={failed?.form === "package" ? true : undefined}
                aria-describedby={failed?.form === "package" ? "package-problem" : undefined}
              />
            </label>
            <button type="submit" disabled={busy}>
              {t("admin.catalog.package.add")}
            </button>
          </Form>
          {failed?.form === "package" ? (
            <p id="package-problem" role="alert" className="admin-alert">
              {t(`admin.catalog.package.problems.${failed.problem}`)}
            </p>
          ) : null}
        </>
      ) : null}

      <h2>{item.status === "active" ? t("admin.catalog.status.discontinueHeading") : t("admin.catalog.status.restoreHeading")}</h2>
      <p>{item.status === "active" ? t("admin.catalog.status.discontinueLead") : t("admin.catalog.status.restoreLead")}</p>
      <Form method="post" className={`catalog-form${item.status === "active" ? " catalog-danger" : ""}`}>
        <input type="hidden" name="intent" value={item.status === "active" ? "discontinue" : "restore"} />
        <label>
          {t("admin.catalog.status.reason")}
          <input name="reason" maxLength={500} defaultValue={failed?.form === "status" ? failed.values.reason : ""} />
        </label>
        {failed?.form === "status" ? (
          <p role="alert" className="admin-alert">
            {t("admin.catalog.problems.reason")}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          {item.status === "active" ? t("admin.catalog.status.discontinue") : t("admin.catalog.status.restore")}
        </button>
      </Form>
    </main>
  );
}
