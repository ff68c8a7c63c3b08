import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CardGrid } from "../components/content-card";
import { Pagination } from "../components/pagination";
import { useTranslation } from "../i18n/react";
import { isContentType } from "../market/catalog/detail.server";
import { listTerms } from "../market/catalog/landing.server";
import { findGroup, listContents, listScope } from "../market/catalog/lists.server";
import { listQuery } from "../market/catalog/queries.server";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["category", "item", "list", "pagination"] };

export const LIST_PAGE_SIZE = 24;

/** /list/{space}/{id}: a paged grid of one category, genre, mood or theme of a space ("all" for the whole space). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const space = params.space;
  if (space !== "benefit" && !isContentType(space)) throw redirect("/404");
  const id = params.id === "all" ? null : Number(params.id);
  if (id !== null && (!Number.isInteger(id) || id <= 0)) throw redirect("/404");
  const group = id === null ? null : await findGroup(context.db, id, context.locale);
  if (id !== null && !group) throw redirect("/404");
  const scope = listScope(space, group);
  if (!scope) throw redirect("/404");
  const { page, sort } = listQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const result = await listContents(
    context.db,
    {
      ...scope,
      group: group ? { id: group.id, kind: group.kind } : undefined,
      order: sort,
      offset: (page - 1) * LIST_PAGE_SIZE,
      limit: LIST_PAGE_SIZE,
    },
    context.locale,
  );
  const pages = Math.max(1, Math.ceil(result.total / LIST_PAGE_SIZE));
  if (page > pages) throw redirect(`/list/${space}/${params.id}?page=${pages}${sort === "recent" ? "&sort=recent" : ""}`);
  // Free & Benefit spans every type: no category chips of its own.
  const categories = space === "benefit" ? [] : await listTerms(context.db, "category", space, context.locale);
  const seo = await pageSeo(request, context, {
    title: group?.name ?? undefined,
    titleKey: group ? undefined : `meta.${space}`,
    space,
    keep: ["page", "sort"],
  });
  return {
    space,
    id: params.id ?? "all",
    group,
    list: result.list,
    total: result.total,
    page,
    pages,
    sort,
    categories,
    seo,
    locale: context.locale,
  };
}

export const headers = cacheHeaders("catalog");

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function ListPage() {
  const { space, id, group, list, total, page, pages, sort, categories, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const base = `/list/${space}/${id}`;
  const href = (p: number, s = sort) => `${base}?page=${p}${s === "recent" ? "&sort=recent" : ""}`;
  const title = group?.name ?? t(`nav.${space}`);
  return (
    <>
      <p className="breadcrumb">
        <Link to={`/${space}`}>{t(`nav.${space}`)}</Link>
      </p>
      <h1>{title}</h1>
      {categories.length ? (
        <nav aria-label={space === "package" ? t("list.packageFilter") : t("list.categoryFilter")}>
          <ul className="chips">
            <li>
              <Link to={`/list/${space}/all`} aria-current={id === "all" ? "page" : undefined}>
                {t("list.all")}
              </Link>
            </li>
            {categories.map((c) => (
              <li key={c.id}>
                <Link to={`/list/${space}/${c.id}`} aria-current={String(c.id) === id ? "page" : undefined}>
                  {c.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <div className="list-toolbar">
        <p role="status">{t("list.count", { count: total })}</p>
        <ul className="sort-links" aria-label={t("list.sort")}>
          <li>
            <Link to={href(1, "popular")} aria-current={sort === "popular" ? "true" : undefined}>
              {t("list.popular")}
            </Link>
          </li>
          <li>
            <Link to={href(1, "recent")} aria-current={sort === "recent" ? "true" : undefined}>
              {t("list.recent")}
            </Link>
          </li>
        </ul>
      </div>
      {list.length ? <CardGrid cards={list} locale={locale} label={title} /> : <p>{t("category.empty")}</p>}
      <Pagination page={page} pages={pages} href={href} />
    </>
  );
}
