import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { z } from "zod";
import { useTranslation } from "../i18n/react";
import { ALIAS_SHEET_FORM } from "../market/alias-sheet.server";
import { MarketError } from "../market/errors";
import { ALIAS_MAX, LICENSE_TYPES } from "../market/license-rules";
import {
  importAliasSheet,
  linkNonMemberLicense,
  listMemberLicenses,
  moveLicense,
  reorderLicenses,
  setLicenseAlias,
} from "../market/licenses.server";
import { requireViewer } from "../utils/auth.server";
import { readBoundedForm } from "../utils/multipart.server";
import { pageSeo } from "../utils/page.server";
import { retryAfterHeaders, tooManyText, withRetryAfter } from "../utils/rate-limit.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cart", "embedded", "licenses", "limits", "mypage", "pay"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const url = new URL(request.url);
  const keyword = (url.searchParams.get("keyword") ?? "").trim().slice(0, 50);
  const type = z
    .enum(LICENSE_TYPES)
    .optional()
    .catch(undefined)
    .parse(url.searchParams.get("type") || undefined);
  const [licenses, seo] = await Promise.all([
    listMemberLicenses(context.db, viewer.id, { keyword: keyword || undefined, type }),
    pageSeo(request, context, { titleKey: "licenses.title" }),
  ]);
  // "Download now" after buying for a typed non-member key leads here with the key to link (/payComp).
  const link = (url.searchParams.get("link") ?? "").trim();
  return { licenses, keyword, type: type ?? "", seo, locale: context.locale, linkSerial: /^[\w-]{1,60}$/.test(link) ? link : "" };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export const headers = withRetryAfter;

type Result = {
  intent: string;
  message?: string;
  values?: { serial: string; email: string };
  rows?: { key: string; row: number; serial: string }[];
  ok?: number;
  total?: number;
};

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("alias"), id: z.coerce.number().int().positive(), alias: z.string().max(200) }),
  z.object({ intent: z.literal("move"), id: z.coerce.number().int().positive(), direction: z.enum(["up", "down"]) }),
  z.object({ intent: z.literal("order"), order: z.string().regex(/^\d+(,\d+)*$/) }),
  z.object({ intent: z.literal("link"), serial: z.string().trim().min(1).max(60), email: z.string().trim().min(1).max(254) }),
]);

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  if (request.headers.get("content-type")?.startsWith("multipart/form-data")) {
    const upload = await readBoundedForm(request, ALIAS_SHEET_FORM);
    const outcome = await importAliasSheet(context.db, viewer.id, {
      file: upload.form.get("sheet"),
      tooLarge: upload.truncated || upload.oversized.includes("sheet"),
    });
    if (!outcome.ok) return data<Result>({ intent: "upload", message: `licenses.upload.${outcome.reason}` }, { status: 400 });
    return data<Result>({
      intent: "upload",
      rows: outcome.results.map((r) => ({
        key: r.ok ? "licenses.upload.success" : `licenses.upload.${r.problem}`,
        row: r.row,
        serial: r.serial,
      })),
      ok: outcome.results.filter((r) => r.ok).length,
      total: outcome.results.length,
    });
  }
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data<Result>({ intent: "invalid", message: "cart.nothingSelected" }, { status: 400 });
  const input = parsed.data;
  if (input.intent === "alias") {
    if (!(await setLicenseAlias(context.db, viewer.id, input.id, input.alias)))
      return data<Result>({ intent: "alias", message: "licenses.aliasNotYours" }, { status: 404 });
    return data<Result>({ intent: "alias", message: "licenses.aliasSaved" });
  }
  if (input.intent === "move") {
    await moveLicense(context.db, viewer.id, input.id, input.direction);
    return data<Result>({ intent: "move", message: "licenses.orderSaved" });
  }
  if (input.intent === "order") {
    try {
      await reorderLicenses(context.db, viewer.id, input.order.split(",").map(Number));
    } catch (error) {
      if (error instanceof MarketError) return data<Result>({ intent: "order", message: "cart.nothingSelected" }, { status: 400 });
      throw error;
    }
    return data<Result>({ intent: "order", message: "licenses.orderSaved" });
  }
  const link = await linkNonMemberLicense(context.db, viewer.id, { serial: input.serial, email: input.email, ip: context.clientIp });
  const values = { serial: input.serial, email: input.email };
  if (link.outcome === "TOO_MANY_ATTEMPTS")
    return data<Result>(
      { intent: "link", message: tooManyText(context.locale, link.retryAfterMs), values },
      { status: 429, headers: retryAfterHeaders(link.retryAfterMs) },
    );
  if (link.outcome === "NOT_FOUND") return data<Result>({ intent: "link", message: "licenses.link.NOT_FOUND", values }, { status: 400 });
  return data<Result>({ intent: "link", message: "licenses.link.LINKED" });
}

export default function LicensesPage() {
  const { licenses, keyword, type, locale, linkSerial } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const reorder = useFetcher<typeof action>();
  const [order, setOrder] = useState(() => licenses.map((l) => l.id));
  const serverOrder = licenses.map((l) => l.id).join(",");
  // Follow the server's order whenever it changes (a move, a search, another tab).
  useEffect(() => setOrder(serverOrder ? serverOrder.split(",").map(Number) : []), [serverOrder]);
  const filtered = Boolean(keyword || type);

  useEffect(() => {
    if (!listRef.current || filtered) return;
    let sortable: { destroy(): void } | undefined;
    let cancelled = false;
    import("sortablejs").then(({ default: Sortable }) => {
      if (cancelled || !listRef.current) return;
      sortable = Sortable.create(listRef.current, {
        handle: ".drag-handle",
        animation: 150,
        onEnd: (evt) => {
          const { oldIndex, newIndex, from, item } = evt;
          if (oldIndex === undefined || newIndex === undefined || oldIndex === newIndex) return;
          // Put the node back where React rendered it, then let React render the new order.
          from.removeChild(item);
          from.insertBefore(item, from.children[oldIndex] ?? null);
          setOrder((prev) => {
            const next = [...prev];
            const [moved] = next.splice(oldIndex, 1);
            next.splice(newIndex, 0, moved);
            reorder.submit({ intent: "order", order: next.join(",") }, { method: "post" });
            return next;
          });
        },
      });
    });
    return () => {
      cancelled = true;
      sortable?.destroy();
    };
  }, [filtered, reorder.submit]);

  const byId = new Map(licenses.map((l) => [l.id, l]));
  const shown = order.map((i) => byId.get(i)).filter((l): l is (typeof licenses)[number] => Boolean(l));
  const date = (iso: string) =>
    new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { dateStyle: "medium", timeZone: "Asia/Seoul" }).format(new Date(iso));
  const message = reorder.data?.message ?? (result?.intent === "upload" ? undefined : result?.message);
  const busy = navigation.state === "submitting";
  // A refused link keeps what was typed.
  const linkValues = result?.intent === "link" ? result.values : undefined;
  return (
    <section className="licenses-page">
      <h1>{t("licenses.title")}</h1>
      <p className="muted">{t("licenses.lead")}</p>
      <Form method="get" className="inline-form" role="search" aria-label={t("licenses.search")}>
        <div className="field">
          <label htmlFor={`${id}-kw`}>{t("licenses.keyword")}</label>
          <input id={`${id}-kw`} name="keyword" defaultValue={keyword} maxLength={50} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>{t("licenses.type")}</label>
          <select id={`${id}-type`} name="type" defaultValue={type}>
            <option value="">{t("licenses.allTypes")}</option>
            {LICENSE_TYPES.map((lt) => (
              <option key={lt} value={lt}>
                {t(`mypage.type.${lt}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t("licenses.apply")}
        </button>
      </Form>
      <div
        role="status"
        aria-live="polite"
        className={`form-result${message && message !== "licenses.aliasSaved" && message !== "licenses.orderSaved" && message !== "licenses.link.LINKED" ? " is-error" : ""}`}
      >
        {message ? t(message) : null}
        {message === "licenses.link.LINKED" ? (
          <>
            {" "}
            <Link to="/mypage/download">{t("pay.downloadNow")}</Link>
          </>
        ) : null}
      </div>
      {shown.length === 0 ? (
        <p>{t("licenses.none")}</p>
      ) : (
        <ol ref={listRef} className="license-list">
          {shown.map((l, index) => {
            const name = l.alias ?? l.serial;
            return (
              <li key={l.id} className="license-row" data-id={l.id}>
                {!filtered ? (
                  <span className="drag-handle" aria-hidden="true" title={t("licenses.drag", { name })}>
                    ⋮⋮
                  </span>
                ) : null}
                <div className="license-info">
                  <Form method="post" className="alias-form">
                    <input type="hidden" name="intent" value="alias" />
                    <input type="hidden" name="id" value={l.id} />
                    <label htmlFor={`${id}-alias-${l.id}`} className="visually-hidden">
                      {t("licenses.aliasFor", { serial: l.serial })}
                    </label>
                    <input
                      id={`${id}-alias-${l.id}`}
                      name="alias"
                      defaultValue={l.alias ?? ""}
                      maxLength={ALIAS_MAX}
                      placeholder={t("licenses.alias")}
                    />
                    <button type="submit" className="button button-ghost" disabled={busy}>
                      {t("licenses.saveAlias")}
                    </button>
                  </Form>
                  <dl className="license-facts">
                    <dt>{t("licenses.serial")}</dt>
                    <dd>{l.serial}</dd>
                    <dt>{t("licenses.status")}</dt>
                    <dd>{t(`embedded.licenseStatus.${l.status}`)}</dd>
                    <dt>{t("licenses.type")}</dt>
                    <dd>{t(`mypage.type.${l.licenseType}`)}</dd>
                    <dt>{t("licenses.term")}</dt>
                    <dd>
                      {l.validUntil
                        ? `${date(l.validUntil)} (${t("licenses.remaining", { count: l.remainingDays ?? 0 })})`
                        : t("licenses.permanent")}
                    </dd>
                    {l.pcName ? (
                      <>
                        <dt>{t("licenses.pcName")}</dt>
                        <dd>{l.pcName}</dd>
                      </>
                    ) : null}
                    <dt>{t("licenses.email")}</dt>
                    <dd>{l.email}</dd>
                  </dl>
                </div>
                {!filtered ? (
                  <Form method="post" className="move-form" preventScrollReset>
                    <input type="hidden" name="intent" value="move" />
                    <input type="hidden" name="id" value={l.id} />
                    <button
                      type="submit"
                      name="direction"
                      value="up"
                      disabled={index === 0 || busy}
                      aria-label={t("licenses.moveUpOf", { name })}
                    >
                      ↑ {t("licenses.moveUp")}
                    </button>
                    <button
                      type="submit"
                      name="direction"
                      value="down"
                      disabled={index === shown.length - 1 || busy}
                      aria-label={t("licenses.moveDownOf", { name })}
                    >
                      ↓ {t("licenses.moveDown")}
                    </button>
                  </Form>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      <section className="section" aria-labelledby={`${id}-upload`}>
        <h2 id={`${id}-upload`}>{t("licenses.upload.title")}</h2>
        <p className="muted">{t("licenses.upload.lead")}</p>
        <Form method="post" encType="multipart/form-data" className="inline-form">
          <div className="field">
            <label htmlFor={`${id}-sheet`}>{t("licenses.upload.file")}</label>
            <input id={`${id}-sheet`} type="file" name="sheet" accept=".xlsx,.csv" required />
          </div>
          <button type="submit" className="button" disabled={busy}>
            {t("licenses.upload.submit")}
          </button>
        </Form>
        {result?.intent === "upload" && result.message ? (
          <p role="alert" className="field-error">
            {t(result.message)}
          </p>
        ) : null}
        {result?.intent === "upload" && result.rows ? (
          <div role="status">
            <p>{t("licenses.upload.summary", { ok: result.ok, total: result.total })}</p>
            <ul>
              {result.rows.map((r) => (
                <li key={r.row} className={r.key.endsWith("success") ? "ok" : "bad"}>
                  {t(r.key, { row: r.row, serial: r.serial })}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>
      <section className="section" aria-labelledby={`${id}-link`} id="link-licence">
        <h2 id={`${id}-link`}>{t("licenses.link.title")}</h2>
        <Form method="post" className="inline-form">
          <input type="hidden" name="intent" value="link" />
          <div className="field">
            <label htmlFor={`${id}-lserial`}>{t("licenses.link.serial")}</label>
            <input id={`${id}-lserial`} name="serial" required maxLength={60} defaultValue={linkValues?.serial ?? linkSerial} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-lemail`}>{t("licenses.link.email")}</label>
            <input id={`${id}-lemail`} name="email" type="email" required maxLength={254} defaultValue={linkValues?.email} />
          </div>
          <button type="submit" className="button" disabled={busy}>
            {t("licenses.link.submit")}
          </button>
        </Form>
      </section>
    </section>
  );
}
