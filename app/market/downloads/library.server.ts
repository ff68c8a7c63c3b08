/** What a licence can download, for /mypage/download, the embedded download pages and users/downloads. */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import { seoulText } from "../../utils/dates";
import { passGroupOf } from "../pass-groups";
import { type PassState, passState } from "../pass-status";
import { holdings } from "./downloads.server";

/**
 * Where a listed item came from: a member's purchase, a direct purchase with a business key, a purchase request
 * paid by the business's representative, a pass download, or a free or benefit download.
 */
export const DOWNLOAD_SOURCES = ["purchase", "direct", "request", "pass", "free", "benefit"] as const;
export type DownloadSource = (typeof DOWNLOAD_SOURCES)[number];

const sourceOf = (h: { passId: number | null; category: string | null }): DownloadSource =>
  h.passId !== null ? "pass" : h.category === "request" ? "request" : h.category === "direct" ? "direct" : "purchase";

export interface LibraryItem {
  contentId: number;
  code: string;
  type: string;
  title: string;
  thumb: string | null;
  source: DownloadSource;
  /** When its period of use ends (an expired item: when it ended); for free and benefit items the last download. */
  until: string;
  expired: boolean;
  discontinued: boolean;
  downloads: number;
}

export interface LibraryPass {
  id: number;
  group: string;
  remaining: number;
  total: number;
  expiresAt: string;
  /** available or used_up (passState): the licence's passes whose period still runs. */
  status: PassState;
}

export interface Library {
  items: LibraryItem[];
  passes: LibraryPass[];
  /** Free and benefit items this licence downloaded before. */
  extras: LibraryItem[];
}

/** One row of a download list page, dates spelled for the page's language (on the server only). */
export interface DownloadRow {
  contentId: number;
  title: string;
  type: string;
  source: DownloadSource;
  until: string;
  expired: boolean;
  discontinued: boolean;
  downloads: number;
}

/** The rows a download page lists: held and expired items, then free and benefit items taken before. */
export function downloadRows(library: Library, locale: Locale): DownloadRow[] {
  const row = (i: LibraryItem, until: string): DownloadRow => ({
    contentId: i.contentId,
    title: i.title,
    type: i.type,
    source: i.source,
    until,
    expired: i.expired,
    discontinued: i.discontinued,
    downloads: i.downloads,
  });
  return [...library.items.map((i) => row(i, seoulText(i.until, locale, "until"))), ...library.extras.map((i) => row(i, ""))];
}

export async function downloadLibrary(db: DB, licenseId: number, locale: Locale, now = new Date()): Promise<Library> {
  const at = now.toISOString();
  // Expired items keep where they came from and when they ended (the holding that ended last).
  const { held, expired, ended, gone } = await holdings(db, licenseId, now);
  const ids = [...held.keys(), ...expired, ...gone];
  const counts = ids.length
    ? await db
        .selectFrom("downloads")
        .select(["content_id", (eb) => eb.fn.countAll<number>().as("n")])
        .where("license_id", "=", licenseId)
        .where("content_id", "in", ids)
        .groupBy("content_id")
        .execute()
    : [];
  const extrasRows = await db
    .selectFrom("downloads")
    .innerJoin("contents", "contents.id", "downloads.content_id")
    .select([
      "contents.id",
      "contents.price_type",
      (eb) => eb.fn.countAll<number>().as("n"),
      (eb) => eb.fn.max("downloads.created_at").as("last"),
    ])
    .where("downloads.license_id", "=", licenseId)
    .where("contents.price_type", "in", ["free", "benefit"])
    .groupBy(["contents.id", "contents.price_type"])
    .execute();
  const allIds = [...new Set([...ids, ...extrasRows.map((r) => r.id)])];
  const contents = allIds.length
    ? await db
        .selectFrom("contents")
        .select(["id", "code", "contents_type", "title_ko", "title_en", "poster_path", "status"])
        .where("id", "in", allIds)
        .execute()
    : [];
  const byId = new Map(contents.map((c) => [c.id, c]));
  const count = new Map(counts.map((c) => [c.content_id, Number(c.n)]));
  const item = (
    id: number,
    source: DownloadSource,
    until: string,
    isExpired: boolean,
    downloads: number,
    isGone = false,
  ): LibraryItem | null => {
    const c = byId.get(id);
    if (!c) return null;
    return {
      contentId: id,
      code: c.code,
      type: c.contents_type,
      title: locale === "ko" ? c.title_ko : c.title_en,
      thumb: c.poster_path,
      source,
      until,
      expired: isExpired,
      // Discontinued and not reachable: a holding made before the discontinuation still downloads (holdings).
      discontinued: isGone || (c.status !== "active" && !held.has(id)),
      downloads,
    };
  };
  const items: LibraryItem[] = [];
  for (const [id, h] of held) {
    const i = item(id, sourceOf(h), h.until, false, count.get(id) ?? 0);
    if (i) items.push(i);
  }
  for (const id of expired) {
    const last = ended.get(id);
    const i = item(id, last ? sourceOf(last) : "purchase", last?.until ?? "", true, count.get(id) ?? 0);
    if (i) items.push(i);
  }
  for (const id of gone) {
    const i = item(id, "purchase", "", false, count.get(id) ?? 0, true);
    if (i) items.push(i);
  }
  items.sort((a, b) => Number(a.expired) - Number(b.expired) || b.until.localeCompare(a.until) || a.contentId - b.contentId);
  const passes = await db
    .selectFrom("passes")
    .innerJoin("pass_prices", "pass_prices.id", "passes.pass_price_id")
    .select([
      "passes.id",
      "passes.remaining",
      "passes.total",
      "passes.status",
      "passes.expires_at",
      "pass_prices.contents_flag",
      "pass_prices.contents_type_sub",
    ])
    .where("passes.license_id", "=", licenseId)
    .where("passes.status", "=", "available")
    .where("passes.expires_at", ">", at)
    .orderBy("passes.expires_at")
    .execute();
  return {
    items,
    passes: passes.map((p) => ({
      id: p.id,
      group: passGroupOf(p.contents_flag, p.contents_type_sub),
      remaining: p.remaining,
      total: p.total,
      expiresAt: p.expires_at,
      status: passState({ status: p.status, remaining: p.remaining, expiresAt: p.expires_at }, now),
    })),
    extras: extrasRows.flatMap((r) => {
      const i = item(r.id, r.price_type === "benefit" ? "benefit" : "free", String(r.last ?? ""), false, Number(r.n));
      return i ? [i] : [];
    }),
  };
}

/** One download a member took, newest first (the operator console's member page). */
export interface MemberDownload {
  id: number;
  contentId: number;
  code: string;
  title: string;
  kind: string;
  serial: string | null;
  createdAt: string;
}

export const MEMBER_DOWNLOADS_LIMIT = 20;

/** A member's latest downloads across their licences, with the total count. */
export async function memberDownloads(
  db: DB,
  userId: number,
  locale: Locale,
  limit = MEMBER_DOWNLOADS_LIMIT,
): Promise<{ list: MemberDownload[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom("downloads")
      .innerJoin("contents", "contents.id", "downloads.content_id")
      .leftJoin("licenses", "licenses.id", "downloads.license_id")
      .select([
        "downloads.id",
        "downloads.content_id",
        "downloads.kind",
        "downloads.created_at",
        "contents.code",
        "contents.title_ko",
        "contents.title_en",
        "licenses.serial",
      ])
      .where("downloads.user_id", "=", userId)
      .orderBy("downloads.created_at", "desc")
      .orderBy("downloads.id", "desc")
      .limit(limit)
      .execute(),
    db
      .selectFrom("downloads")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(total.n),
    list: rows.map((r) => ({
      id: r.id,
      contentId: r.content_id,
      code: r.code,
      title: locale === "ko" ? r.title_ko : r.title_en,
      kind: r.kind,
      serial: r.serial,
      createdAt: r.created_at,
    })),
  };
}
