import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Pagination } from "../components/pagination";
import { useTranslation } from "../i18n/react";
import { deleteRequests } from "../market/requests/requests.server";
import { REQUEST_STATES } from "../market/requests/rules";
import { type CurrencyGroup, representativeRequests } from "../market/requests/selection.server";
import { requireViewer } from "../utils/auth.server";
import { purchaseRequestsActionSchema } from "../utils/input.server";
import { pageSeo } from "../utils/page.server";
import { isRepresentative, payRequests } from "../utils/representative.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["licenses", "orders", "pagination", "pay", "purchase", "request"] };

/**
 * /mypage/purchase: the business representative's purchase requests (spec: my page > purchase request management),
 * filtered by state and request date, 20 to a page; pay or delete the chosen ones. Other accounts are told the page
 * is for business representatives.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const url = new URL(request.url);
  const seo = await pageSeo(request, context, { titleKey: "purchase.title" });
  if (!isRepresentative(viewer)) return data({ list: null, deleted: 0, seo }, { status: 403 });
  const list = await representativeRequests(context.db, viewer.id, url.searchParams, context.locale);
  // The detail page's Delete comes back here with how many it removed.
  const deleted = Math.min(100, Math.max(0, Number.parseInt(url.searchParams.get("deleted") ?? "0", 10) || 0));
  return data({ list, deleted, seo });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  if (!isRepresentative(viewer))
    return data({ ok: false as const, message: "purchase.businessOnly", count: 0, selected: [] as number[] }, { status: 403 });
  const form = await request.formData();
  const parsed = purchaseRequestsActionSchema.safeParse({ intent: form.get("intent"), request: form.getAll("request") });
  if (!parsed.success)
    return data({ ok: false as const, message: "purchase.nothingSelected", count: 0, selected: [] as number[] }, { status: 400 });
  const { intent, request: ids } = parsed.data;
  if (intent === "delete") {
    const count = await deleteRequests(context.db, viewer.id, ids);
    return data({ ok: true as const, message: "purchase.deleted", count, selected: [] as number[] });
  }
  const started = await payRequests(context, viewer.id, ids);
  if (started instanceof Response) return started;
  // Several currencies: the requests of each, to name them and pay them one currency at a time.
  const groups = started.groups ?? [];
  return data({ ok: false as const, message: started.error, count: 0, selected: ids, groups }, { status: started.status });
}

export default function PurchaseRequestsPage() {
  const { list, deleted } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const { t } = useTranslation();
  if (!list) {
    return (
      <section className="message-page">
        <h1>{t("purchase.title")}</h1>
        <p>{t("purchase.businessOnly")}</p>
        <Link to="/mypage/home" className="button">
          {t("purchase.toMyPage")}
        </Link>
      </section>
    );
  }
  const { rows, totalCount, waitingCount, page, pages, state, from, to } = list;
  const query = (extra: Record<string, string> = {}) =>
    new URLSearchParams({ ...(state ? { state } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}), ...extra });
  const pageHref = (n: number) => `?${query({ page: String(n) })}`;
  const busy = navigation.state === "submitting";
  const done = result?.ok
    ? t(result.message, { count: result.count })
    : !result && deleted
      ? t("purchase.deleted", { count: deleted })
      : "";
  const selected = new Set(result?.selected ?? []);
  const groups: CurrencyGroup[] = result && "groups" in result ? result.groups : [];
  const selectAll = (checked: boolean) => {
    for (const box of formRef.current?.querySelectorAll<HTMLInputElement>('input[name="request"]') ?? []) box.checked = checked;
  };
  return (
    <section className="request-page">
      <h1>{t("purchase.title")}</h1>
      <p className="muted">{t("purchase.lead")}</p>
      <Form method="get" className="filter-row">
        <label>
          {t("purchase.filterState")}{" "}
          <select name="state" defaultValue={state}>
            <option value="">{t("purchase.stateAll")}</option>
            {REQUEST_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`purchase.state.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("purchase.from")} <input type="date" name="from" defaultValue={from} />
        </label>
        <label>
          {t("purchase.to")} <input type="date" name="to" defaultValue={to} />
        </label>
        <button type="submit" className="button button-ghost">
          {t("purchase.search")}
        </button>
      </Form>
      <p className="muted request-counts">
        <span data-testid="request-list-count">
          {state || from || to ? t("purchase.countFound", { count: totalCount }) : t("purchase.countAll", { count: totalCount })}
        </span>
        {" · "}
        <span data-testid="request-waiting-count">{t("purchase.countWaiting", { count: waitingCount })}</span>
      </p>
      <div role="status" aria-live="polite" className="form-result">
        {done}
      </div>
      <div className="field-error" role="alert">
        {result && !result.ok ? <p>{t(result.message)}</p> : null}
        {groups.length > 1 ? (
          <ul className="currency-groups">
            {groups.map((g) => (
              <li key={g.currency}>
                <span>{t("purchase.currencyGroup", { currency: g.currency, numbers: g.requests.map((r) => r.requestNo).join(", ") })}</span>{" "}
                <Form method="post" className="currency-pay">
                  {g.requests.map((r) => (
                    <input key={r.id} type="hidden" name="request" value={r.id} />
                  ))}
                  <button type="submit" name="intent" value="pay" className="button button-ghost" disabled={busy}>
                    {t("purchase.payCurrency", { count: g.requests.length, currency: g.currency })}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <p>{t("purchase.empty")}</p>
      ) : (
        <Form method="post" ref={formRef}>
          <div className="cart-toolbar">
            <button type="submit" name="intent" value="pay" className="button" disabled={busy}>
              {t("purchase.paySelected")}
            </button>
            <button type="submit" name="intent" value="delete" className="button button-ghost" disabled={busy}>
              {t("purchase.deleteSelected")}
            </button>
            <span className="muted">{t("purchase.deleteNote")}</span>
          </div>
          <div className="table-scroll request-list-wrap">
            <table className="data-table request-table request-list">
              <caption className="visually-hidden">{t("purchase.title")}</caption>
              <thead>
                <tr>
                  <th scope="col" className="cell-select">
                    {hydrated ? (
                      <input type="checkbox" aria-label={t("purchase.selectAll")} onChange={(e) => selectAll(e.currentTarget.checked)} />
                    ) : (
                      <span className="visually-hidden">{t("purchase.select")}</span>
                    )}
                  </th>
                  <th scope="col" className="cell-date">
                    {t("purchase.date")}
                  </th>
                  <th scope="col" className="cell-request">
                    {t("purchase.request")}
                  </th>
                  <th scope="col" className="cell-contents">
                    {t("purchase.contents")}
                  </th>
                  <th scope="col" className="cell-quantity">
                    {t("purchase.quantity")}
                  </th>
                  <th scope="col" className="cell-total">
                    {t("purchase.total")}
                  </th>
                  <th scope="col" className="cell-status">
                    {t("purchase.status")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id}>
                    <td className="cell-select">
                      <input
                        type="checkbox"
                        name="request"
                        value={r.id}
                        defaultChecked={selected.has(r.id)}
                        aria-label={t("purchase.selectRow", { number: r.requestNo })}
                      />
                    </td>
                    {/* On narrow screens each row is a card: the labels (aria-hidden, the headers name the cells) show. */}
                    <LabelledCell className="cell-date" label={t("purchase.date")}>
                      {r.date}
                    </LabelledCell>
                    <td className="cell-request">
                      <Link to={`/mypage/purchase/${r.id}`} className="nowrap">
                        {r.requestNo}
                      </Link>
                      <small className="muted request-who">
                        <span className="visually-hidden">{t("purchase.email")}: </span>
                        {r.email}
                      </small>
                      <small className="muted request-who">
                        <span className="visually-hidden">{t("purchase.licenseKey")}: </span>
                        <span className="nowrap">{r.serial}</span>
                        {r.alias ? ` (${r.alias})` : null}
                      </small>
                      {r.overlap ? (
                        <small className="request-overlap">
                          {r.overlap.held ? <span>{t("purchase.overlapHeld", { count: r.overlap.held })}</span> : null}
                          {r.overlap.alsoIn.length ? (
                            <span>
                              {t("purchase.overlapAlsoIn", { count: r.overlap.alsoIn.length, numbers: r.overlap.alsoIn.join(", ") })}
                            </span>
                          ) : null}
                        </small>
                      ) : null}
                    </td>
                    <LabelledCell className="cell-contents" label={t("purchase.contents")}>
                      {r.contents}
                    </LabelledCell>
                    <LabelledCell className="cell-quantity" label={t("purchase.quantity")}>
                      {r.quantity}
                    </LabelledCell>
                    <LabelledCell className="cell-total" label={t("purchase.total")}>
                      <span className="nowrap">{r.total}</span>
                    </LabelledCell>
                    <td className={`cell-status request-state is-${r.state}`}>{t(`purchase.state.${r.state}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Form>
      )}
      <Pagination page={page} pages={pages} href={pageHref} />
    </section>
  );
}

/** A cell of the request list that, when the list is narrow and rows are cards, shows its column's name (hidden from
 * assistive technology: the header cell already names it). */
function LabelledCell({ className, label, children }: { className: string; label: string; children: ReactNode }) {
  return (
    <td className={className}>
      <span className="cell-label" aria-hidden="true">
        {label}
      </span>
      {children}
    </td>
  );
}
