import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import { MarketError } from "./errors";
import { type Actor, recordAudit } from "./operators/audit.server";

/**
 * The store's service modes (issue 17 point 7), switched at runtime from the console and seen by every server
 * process within MODES_TTL_MS, without a restart:
 *  - home: "full" or "service-stop" (the home shows only the service-stop notice); HOME_MODE is its default until
 *    an operator first switches it;
 *  - inspection: the store is under inspection (storefront pages go to /servicecheck, the API answers 503), with the
 *    window's times and an operator's text in each language, shown on /servicecheck;
 *  - errorService: the store shows the error-service page (/errorservice) instead of its pages (the API answers 503).
 * They live in the `settings` table (one row a key), written in one transaction with the audit line.
 */
export type HomeMode = "full" | "service-stop";

export interface ServiceModes {
  home: HomeMode;
  inspection: boolean;
  errorService: boolean;
  /** The inspection window, ISO instants (the `maintenance_window` key, `start/end`). */
  window: { start: string; end: string } | null;
  /** The operator's inspection text in each language ("" when none). */
  text: Record<Locale, string>;
  /**
   * The service-stop notice's picture in each language when an operator replaced it (an image they uploaded and the
   * words it shows, its alternative text); null: the store's own (public/pictures/service-stop-<lang>.svg).
   */
  stopNotice: Record<Locale, StopNotice | null>;
}

export interface StopNotice {
  image: string;
  alt: string;
}

/**
 * The store's own service-stop picture of a language (drawn by scripts/notice-images.ts, words in the locale files).
 * Its folder is not named like a page: public/ is served before the pages, and /notice is the notices page.
 */
export const defaultStopImage = (locale: Locale) => `/pictures/service-stop-${locale}.svg`;

export const MODE_KEYS = {
  home: "home_mode",
  inspection: "inspection",
  errorService: "error_service",
  window: "maintenance_window",
  textKo: "maintenance_text_ko",
  textEn: "maintenance_text_en",
  stopNoticeKo: "service_stop_notice_ko",
  stopNoticeEn: "service_stop_notice_en",
} as const;

const STOP_NOTICE_KEYS: Record<Locale, string> = { ko: MODE_KEYS.stopNoticeKo, en: MODE_KEYS.stopNoticeEn };

/** A stored replacement picture ({"image","alt"} as JSON), or null when there is none or it is not one. */
function readStopNotice(value: string | undefined): StopNotice | null {
  if (!value) return null;
  try {
    const v = JSON.parse(value) as Partial<StopNotice>;
    return typeof v.image === "string" && typeof v.alt === "string" && v.image.startsWith("/media/")
      ? { image: v.image, alt: v.alt }
      : null;
  } catch {
    return null;
  }
}

/** How long a process keeps the modes it read before reading them again: a switch reaches every process within it. */
export const MODES_TTL_MS = 1000;

type Row = { key: string; value: string };
type ModesCache = WeakMap<DB, { at: number; rows: Promise<Row[]> }>;
// One cache per process even when this module is loaded twice (server.ts imports the source, the Remix build
// bundles its own copy): a switch forgotten by the build's copy is forgotten by the server's page cache too.
const registry = globalThis as { [key: symbol]: ModesCache | undefined };
const CACHE = Symbol.for("asset-market.service-modes");
registry[CACHE] ??= new WeakMap();
const cache = registry[CACHE];

function parse(rows: Row[], defaultHome: HomeMode): ServiceModes {
  const get = (key: string) => rows.find((r) => r.key === key)?.value;
  const home = get(MODE_KEYS.home);
  const [start, end] = get(MODE_KEYS.window)?.split("/") ?? [];
  return {
    home: home === "full" || home === "service-stop" ? home : defaultHome,
    inspection: get(MODE_KEYS.inspection) === "on",
    errorService: get(MODE_KEYS.errorService) === "on",
    window: start && end ? { start, end } : null,
    text: { ko: get(MODE_KEYS.textKo) ?? "", en: get(MODE_KEYS.textEn) ?? "" },
    stopNotice: { ko: readStopNotice(get(MODE_KEYS.stopNoticeKo)), en: readStopNotice(get(MODE_KEYS.stopNoticeEn)) },
  };
}

function readRows(db: DB): Promise<Row[]> {
  return db.selectFrom("settings").select(["key", "value"]).where("key", "in", Object.values(MODE_KEYS)).execute();
}

/** The modes as stored now (no cache): the console reads these. */
export async function readServiceModes(db: DB, defaultHome: HomeMode = "full"): Promise<ServiceModes> {
  return parse(await readRows(db), defaultHome);
}

/**
 * The modes for serving a request: read from the database at most once per MODES_TTL_MS per database handle (each
 * server process has its own), so a switch made by any process is seen everywhere within that time.
 */
export async function serviceModes(db: DB, defaultHome: HomeMode = "full", now = Date.now()): Promise<ServiceModes> {
  let hit = cache.get(db);
  if (!hit || now - hit.at >= MODES_TTL_MS) {
    const rows = readRows(db);
    hit = { at: now, rows };
    cache.set(db, hit);
    // A failed read is not kept: the next request asks again.
    rows.catch(() => {
      if (cache.get(db)?.rows === rows) cache.delete(db);
    });
  }
  return parse(await hit.rows, defaultHome);
}

/** Forgets this process's copy (after its own switch, so the operator sees the change at once). */
export function forgetServiceModes(db: DB): void {
  cache.delete(db);
}

/**
 * A fingerprint of what the modes make the storefront show: the server's page micro-cache drops its pages when it
 * changes, so no cached page of the old mode outlives a switch by more than MODES_TTL_MS.
 */
export function modesFingerprint(m: ServiceModes): string {
  const picture = (n: StopNotice | null) => (n ? n.image : "-");
  return `${m.home}|${m.inspection ? 1 : 0}|${m.errorService ? 1 : 0}|${picture(m.stopNotice.ko)}|${picture(m.stopNotice.en)}`;
}

export interface ModesChange {
  home: HomeMode;
  inspection: boolean;
  errorService: boolean;
  window: { start: string; end: string } | null;
  text: Record<Locale, string>;
}

/** Where a storefront request goes under the modes: null when the store is open (error service wins over inspection). */
export function closedTarget(m: Pick<ServiceModes, "inspection" | "errorService">): "/errorservice" | "/servicecheck" | null {
  if (m.errorService) return "/errorservice";
  if (m.inspection) return "/servicecheck";
  return null;
}

/**
 * Paths that are never closed by inspection or error service: the console (operators switch the modes back from
 * there), the two pages themselves, the payment sandbox's hosted page (a gateway, not the store) and the health check.
 */
export function isAlwaysOpen(pathname: string): boolean {
  return (
    pathname === "/admin" ||
    pathname.startsWith("/admin/") ||
    pathname === "/servicecheck" ||
    pathname === "/errorservice" ||
    pathname.startsWith("/sandbox/") ||
    pathname === "/healthz"
  );
}

/**
 * Whether two windows are the same instants: a window stored as "2021-06-19T15:00:00Z" (the seed's) comes back from
 * the form as "2021-06-19T15:00:00.000Z", which is no change.
 */
function sameWindow(a: ServiceModes["window"], b: ServiceModes["window"]): boolean {
  if (!a || !b) return a === b;
  return Date.parse(a.start) === Date.parse(b.start) && Date.parse(a.end) === Date.parse(b.end);
}

/**
 * Switches the modes: one settings row per changed key and one audit line per changed switch (`mode.home`,
 * `mode.inspection`, `mode.error_service`, `mode.window`), in one transaction. Answers what changed.
 */
export async function changeServiceModes(db: DB, change: ModesChange, actor: Actor, defaultHome: HomeMode = "full", now = new Date()) {
  const changed = await db.transaction().execute(async (trx) => {
    const before = await readServiceModes(trx, defaultHome);
    const put = (key: string, value: string) =>
      trx
        .insertInto("settings")
        .values({ key, value })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
        .execute();
    const done: string[] = [];
    if (before.home !== change.home) {
      await put(MODE_KEYS.home, change.home);
      await recordAudit(
        trx,
        actor,
        { action: "mode.home", targetType: "service_mode", targetId: "home", before: before.home, after: change.home },
        now,
      );
      done.push("home");
    }
    if (before.inspection !== change.inspection) {
      await put(MODE_KEYS.inspection, change.inspection ? "on" : "off");
      await recordAudit(
        trx,
        actor,
        {
          action: "mode.inspection",
          targetType: "service_mode",
          targetId: "inspection",
          before: before.inspection,
          after: change.inspection,
        },
        now,
      );
      done.push("inspection");
    }
    if (before.errorService !== change.errorService) {
      await put(MODE_KEYS.errorService, change.errorService ? "on" : "off");
      await recordAudit(
        trx,
        actor,
        {
          action: "mode.error_service",
          targetType: "service_mode",
          targetId: "error_service",
          before: before.errorService,
          after: change.errorService,
        },
        now,
      );
      done.push("errorService");
    }
    const windowText = (w: ServiceModes["window"]) => (w ? `${w.start}/${w.end}` : "");
    if (!sameWindow(before.window, change.window) || before.text.ko !== change.text.ko || before.text.en !== change.text.en) {
      if (change.window) await put(MODE_KEYS.window, windowText(change.window));
      else await trx.deleteFrom("settings").where("key", "=", MODE_KEYS.window).execute();
      await put(MODE_KEYS.textKo, change.text.ko);
      await put(MODE_KEYS.textEn, change.text.en);
      await recordAudit(
        trx,
        actor,
        {
          action: "mode.window",
          targetType: "service_mode",
          targetId: "window",
          before: { window: before.window, text: before.text },
          after: { window: change.window, text: change.text },
        },
        now,
      );
      done.push("window");
    }
    return done;
  });
  forgetServiceModes(db);
  return changed;
}

/**
 * Replaces the service-stop notice's picture of one language (an image already stored by the console, with the words
 * it shows as its alternative text), or with null gives the store's own back. One settings row and one audit line
 * (`mode.stop_notice`), in one transaction. Answers whether anything changed.
 */
export async function changeStopNotice(
  db: DB,
  locale: Locale,
  notice: StopNotice | null,
  actor: Actor,
  defaultHome: HomeMode = "full",
  now = new Date(),
): Promise<boolean> {
  if (notice && (!notice.image.startsWith("/media/") || !notice.alt.trim()))
    throw new MarketError("STOP_NOTICE_INVALID", 400, "A replaced notice needs its picture and the words it shows");
  const after = notice ? { image: notice.image, alt: notice.alt.trim() } : null;
  const changed = await db.transaction().execute(async (trx) => {
    const before = (await readServiceModes(trx, defaultHome)).stopNotice[locale];
    if (JSON.stringify(before) === JSON.stringify(after)) return false;
    const key = STOP_NOTICE_KEYS[locale];
    if (after)
      await trx
        .insertInto("settings")
        .values({ key, value: JSON.stringify(after) })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: JSON.stringify(after) }))
        .execute();
    else await trx.deleteFrom("settings").where("key", "=", key).execute();
    await recordAudit(
      trx,
      actor,
      { action: "mode.stop_notice", targetType: "service_mode", targetId: `stop_notice_${locale}`, before, after },
      now,
    );
    return true;
  });
  forgetServiceModes(db);
  return changed;
}
