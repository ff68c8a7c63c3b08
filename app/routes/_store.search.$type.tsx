import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useState } from "react";
import { CardGrid } from "../components/content-card";
import { Pagination } from "../components/pagination";
import { useTranslation } from "../i18n/react";
import { formatCount } from "../i18n/translate";
import { searchPageFilter } from "../market/search/filter-schema.server";
import { bandOf, SEARCH_TYPES, type SearchFilter } from "../market/search/filters";
import { searchContents, searchFilterOptions } from "../market/search/search.server";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["item", "pagination", "search"] };

const FILTER_KEYS = ["sort", "price", "categorys", "duration_start", "duration_end", "audioType", "bpm_start", "bpm_end", "ai"] as const;

/** /search/{type}?keywords=...: results with per-type counts, filters kept in the address. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const type = params.type ?? "all";
  if (!(SEARCH_TYPES as readonly string[]).includes(type)) throw redirect("/404");
  const { filter, page, dropped } = searchPageFilter(new URL(request.url), type);
  const [result, options] = await Promise.all([
    searchContents(context.db, filter, context.locale),
    searchFilterOptions(context.db, filter.type, context.locale),
  ]);
  const seo = await pageSeo(request, context, { titleKey: "search.title", keep: ["keywords"], space: type === "all" ? undefined : type });
  if (filter.keywords) seo.title = `${filter.keywords} – ${seo.title}`;
  return {
    filter,
    page,
    pages: Math.max(1, Math.ceil(result.total_count / filter.limit)),
    result,
    options,
    dropped,
    seo,
    locale: context.locale,
  };
}

export const headers = cacheHeaders("catalog");

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex, follow" }];

/** The address of the current search with some parameters changed (undefined removes one). */
function hrefWith(type: string, filter: SearchFilter, changes: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  if (filter.keywords) params.set("keywords", filter.keywords);
  const current: Record<string, string | undefined> = {
    sort: filter.sort === "accuracy" ? undefined : filter.sort,
    price: filter.price === 2 ? undefined : String(filter.price),
    categorys: filter.categorys.length ? filter.categorys.join(",") : undefined,
    duration_start: filter.duration_start?.toString(),
    duration_end: filter.duration_end?.toString(),
    audioType: filter.audioType === "all" ? undefined : filter.audioType,
    bpm_start: filter.bpm_start?.toString(),
    bpm_end: filter.bpm_end?.toString(),
    ai: filter.ai ? "1" : undefined,
  };
  for (const key of FILTER_KEYS) {
    const value = key in changes ? changes[key] : current[key];
    if (value !== undefined && value !== "") params.set(key, value);
  }
  if (changes.page && changes.page !== "1") params.set("page", changes.page);
  const query = params.toString();
  return `/search/${type}${query ? `?${query}` : ""}`;
}

/** A tab keeps every choice, so the count on a tab is exactly what it shows; Reset clears them. */
const tabHref = (type: string, filter: SearchFilter) => hrefWith(type, filter, {});

export default function SearchPage() {
  const { filter, page, pages, result, options, dropped, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const submit = useSubmit();
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.pathname.startsWith("/search");
  const durationCode = options.durations.find((d) => d.start === filter.duration_start && d.end === filter.duration_end)?.code ?? "";
  const band = bandOf(filter) ?? "";
  // The controls follow the loaded search: after Reset, Back or Forward they show what the results are for.
  const loaded = {
    sort: filter.sort,
    price: String(filter.price),
    categorys: filter.categorys.map(String),
    audioType: filter.audioType,
    ai: filter.ai,
    duration: options.durations.find((d) => d.code === durationCode) ? `${filter.duration_start ?? ""}-${filter.duration_end ?? ""}` : "",
    bpm: band ? `${filter.bpm_start ?? ""}-${filter.bpm_end ?? ""}` : "",
  };
  const signature = JSON.stringify(loaded);
  const [values, setValues] = useState(loaded);
  useEffect(() => setValues(JSON.parse(signature)), [signature]);
  const set = (key: keyof typeof loaded, value: string | boolean) => setValues((v) => ({ ...v, [key]: value }));
  const toggleCategory = (id: string, on: boolean) =>
    setValues((v) => ({ ...v, categorys: on ? [...v.categorys, id] : v.categorys.filter((c) => c !== id) }));
  return (
    <div className="search-page">
      <h1>{filter.keywords ? t("search.resultsFor", { keywords: filter.keywords }) : t("search.allItems")}</h1>
      {dropped ? (
        <p className="notice-box" role="status">
          {t("search.invalid")}
        </p>
      ) : null}
      <nav aria-label={t("search.tabs")}>
        <ul className="tabs">
          {SEARCH_TYPES.map((type) => (
            <li key={type}>
              <Link to={tabHref(type, filter)} aria-current={type === filter.type ? "page" : undefined}>
                {t(`search.type.${type}`)} <span className="badge">{formatCount(locale, result.counts[type])}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="search-layout">
        <Form
          method="get"
          action={`/search/${filter.type}`}
          id="search-filters"
          className="search-filters"
          aria-label={t("search.filters")}
          onChange={(e) => submit(e.currentTarget, { preventScrollReset: true, replace: true })}
        >
          <input type="hidden" name="keywords" value={filter.keywords} />
          <div className="field">
            <label htmlFor="sort">{t("search.sort")}</label>
            <select id="sort" name="sort" value={values.sort} onChange={(e) => set("sort", e.currentTarget.value)}>
              {options.sorts.map((s) => (
                <option key={s} value={s}>
                  {t(`search.sorts.${s}`)}
                </option>
              ))}
            </select>
          </div>
          <fieldset>
            <legend>{t("search.price")}</legend>
            {options.prices.map((p) => (
              <label key={p.value} className="check">
                <input
                  type="radio"
                  name="price"
                  value={p.value}
                  checked={values.price === String(p.value)}
                  onChange={() => set("price", String(p.value))}
                />{" "}
                {t(`search.prices.${p.code}`)}
              </label>
            ))}
          </fieldset>
          {options.categories.length ? (
            <fieldset>
              <legend>{t("search.category")}</legend>
              {options.categories.map((c) => (
                <label key={c.id} className="check">
                  <input
                    type="checkbox"
                    name="categorys"
                    value={c.id}
                    checked={values.categorys.includes(String(c.id))}
                    onChange={(e) => toggleCategory(String(c.id), e.currentTarget.checked)}
                  />{" "}
                  {c.name}
                </label>
              ))}
            </fieldset>
          ) : null}
          {options.genres.length ? (
            <fieldset>
              <legend>{t("search.genre")}</legend>
              {options.genres.map((g) => (
                <label key={g.id} className="check">
                  <input
                    type="checkbox"
                    name="categorys"
                    value={g.id}
                    checked={values.categorys.includes(String(g.id))}
                    onChange={(e) => toggleCategory(String(g.id), e.currentTarget.checked)}
                  />{" "}
                  {g.name}
                </label>
              ))}
            </fieldset>
          ) : null}
          {options.audioTypes.length ? (
            <fieldset>
              <legend>{t("search.audioType")}</legend>
              {options.audioTypes.map((a) => (
                <label key={a} className="check">
                  <input type="radio" name="audioType" value={a} checked={values.audioType === a} onChange={() => set("audioType", a)} />{" "}
                  {t(`search.audioTypes.${a}`)}
                </label>
              ))}
              <label className="check">
                <input type="checkbox" name="ai" value="1" checked={values.ai} onChange={(e) => set("ai", e.currentTarget.checked)} />{" "}
                {t("search.ai")}
              </label>
            </fieldset>
          ) : null}
          {options.durations.length ? (
            <fieldset>
              <legend>{t("search.duration")}</legend>
              <label className="check">
                <input type="radio" name="duration" value="" checked={values.duration === ""} onChange={() => set("duration", "")} />{" "}
                {t("search.durations.any")}
              </label>
              {options.durations.map((d) => (
                <label key={d.code} className="check">
                  <input
                    type="radio"
                    name="duration"
                    value={`${d.start ?? ""}-${d.end ?? ""}`}
                    checked={values.duration === `${d.start ?? ""}-${d.end ?? ""}`}
                    onChange={() => set("duration", `${d.start ?? ""}-${d.end ?? ""}`)}
                  />{" "}
                  {t(`search.durations.${d.code}`)}
                </label>
              ))}
            </fieldset>
          ) : null}
          {options.bpmBands.length ? (
            <fieldset>
              <legend>{t("search.bpm")}</legend>
              <label className="check">
                <input type="radio" name="bpm" value="" checked={values.bpm === ""} onChange={() => set("bpm", "")} /> {t("search.bpmAny")}
              </label>
              {options.bpmBands.map((b) => (
                <label key={b.code} className="check">
                  <input
                    type="radio"
                    name="bpm"
                    value={`${b.start}-${b.end ?? ""}`}
                    checked={values.bpm === `${b.start}-${b.end ?? ""}`}
                    onChange={() => set("bpm", `${b.start}-${b.end ?? ""}`)}
                  />{" "}
                  {t(`search.bpmBands.${b.code}`)}
                </label>
              ))}
            </fieldset>
          ) : null}
          <div className="filter-actions">
            <button type="submit" className="button">
              {t("search.apply")}
            </button>
            <Link
              to={hrefWith(filter.type, filter, Object.fromEntries(FILTER_KEYS.map((k) => [k, undefined])))}
              className="button button-ghost"
            >
              {t("search.reset")}
            </Link>
          </div>
        </Form>
        <section className="search-results" aria-busy={busy} aria-labelledby="results-h">
          <h2 id="results-h" className="results-count">
            {t("search.count", { count: result.total_count })}
          </h2>
          {/* The heading stays a heading; this polite live region announces the new count when the filters change. */}
          <p className="visually-hidden" role="status" aria-live="polite">
            {t("search.count", { count: result.total_count })}
          </p>
          {/* On small screens the results come first; this leads to the filters below them. */}
          <a href="#search-filters" className="filters-jump">
            {t("search.filters")}
          </a>
          {result.corrected ? <p className="notice-box">{t("search.corrected", { corrected: result.corrected })}</p> : null}
          {result.related.length ? (
            <div className="keyword-row">
              <h3>{t("search.related")}</h3>
              <ul className="chips">
                {result.related.map((w) => (
                  <li key={w}>
                    <Link to={`/search/${filter.type}?keywords=${encodeURIComponent(w)}`}>{w}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {result.total_count === 0 ? (
            <div className="no-results">
              {/* Without a search word the filters found nothing: the box says that, not “” (issue 26.8). */}
              <p>
                <strong>{filter.keywords ? t("search.noResults", { keywords: filter.keywords }) : t("search.noResultsFilters")}</strong>
              </p>
              <p>
                {filter.keywords
                  ? t(result.recommended.length ? "search.noResultsHint" : "search.noResultsHintAlone")
                  : t("search.noResultsFiltersHint")}
              </p>
            </div>
          ) : (
            <CardGrid cards={result.list} locale={locale} label={t("search.title")} />
          )}
          <div className="keyword-row">
            <h3>{t("search.recommended")}</h3>
            <ul className="chips">
              {result.recommended.map((w) => (
                <li key={w}>
                  <Link to={`/search/${filter.type}?keywords=${encodeURIComponent(w)}`}>{w}</Link>
                </li>
              ))}
            </ul>
          </div>
          <Pagination page={page} pages={pages} href={(p) => hrefWith(filter.type, filter, { page: String(p) })} />
        </section>
      </div>
    </div>
  );
}
