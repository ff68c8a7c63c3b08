/**
 * Downloads into the editor (spec sections 4, 6, 8, 9). Every file leaves through a short-lived signed link issued
 * only after the checks: Windows, editor version, an active licence, and a right to the content — a purchase
 * within its 90 days, a pass (1 deducted exactly once per pass and content, however often or concurrently it is
 * asked), or free content (licensed product + market account) or benefit content (a paid purchase). Something
 * the licence already holds within its period downloads again at no cost.
 */
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import type { DB } from "../../db/db.server";
import type { ContentsType } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { MarketError } from "../errors";
import type { LicenseIdentity } from "../licenses.server";
import { passGroupOf } from "../pass-groups";
import { passState } from "../pass-status";
import { passGroupOfContent, type SkipReason, versionAtLeast } from "./rules";

/** A file link lives 10 minutes (long enough to resume with range requests, short enough not to be shared). */
export const FILE_LINK_MS = 10 * 60_000;
/** A hand-over to the editor must be redeemed within 10 minutes, once. */
export const BRIDGE_MS = 10 * 60_000;

export interface DownloadLicense {
  id: number;
  userId: number | null;
  status: string;
  validUntil: string | null;
  productVersion: string;
}

export type DownloadMode = "owned" | "pass" | "free";

export interface DownloadRequest {
  license: DownloadLicense;
  /** The signed-in market member, when there is one (free content needs a market account). */
  userId: number | null;
  contentIds: number[];
  mode: DownloadMode;
  passId?: number;
  /** Windows or not, from the caller (the editor is Windows software; the web checks the user agent). */
  windows: boolean;
  now?: Date;
}

export interface GrantedFile {
  contentId: number;
  code: string;
  title: string;
  filename: string;
  url: string;
  /** A pass paid for this download (it was not already held). */
  deducted: boolean;
}

export interface DownloadResult {
  granted: GrantedFile[];
  skipped: { contentId: number; reason: SkipReason }[];
  /** The spec's messages (section 8) the caller shows. */
  messages: ("expired_excluded" | "nothing_available" | "no_remaining" | "discontinued")[];
}

const sha256 = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(24).toString("base64url");
const ACTIVE_LICENSE = ["registered", "unlimited"];

const CONTENT_TYPES: Record<string, string> = {
  ".mp4": "video/mp4",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".wav": "audio/wav",
  ".mp3": "audio/mpeg",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
};
export const contentTypeOf = (file: string) => CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";

/** The download view of a licence as `identifyLicense` answers it. */
export const downloadLicenseOf = (l: LicenseIdentity): DownloadLicense => ({
  id: l.id,
  userId: l.userId,
  status: l.status,
  validUntil: l.validUntil,
  productVersion: l.productVersion,
});

/** Refuses what no item can get past: another operating system, an old editor, an inactive licence. */
export function checkInstallation(license: DownloadLicense, windows: boolean, now = new Date()) {
  if (!windows) throw new MarketError("DOWNLOAD_OS", 403, "Download not possible on this operating system; use Windows");
  if (!versionAtLeast(license.productVersion))
    throw new MarketError("EDITOR_TOO_OLD", 426, "Update the video editor to version 2.0.4.7.0 or later to download");
  const inTerm = !license.validUntil || Date.parse(license.validUntil) > now.getTime();
  if (!ACTIVE_LICENSE.includes(license.status) || !inTerm) throw new MarketError("LICENSE_INACTIVE", 403, "The licence is not active");
}

/** The code of what stops any download to this installation (DOWNLOAD_OS, EDITOR_TOO_OLD, LICENSE_INACTIVE), or null. */
export function installationProblem(license: DownloadLicense, windows: boolean, now = new Date()): string | null {
  try {
    checkInstallation(license, windows, now);
    return null;
  } catch (error) {
    if (error instanceof MarketError) return error.code;
    throw error;
  }
}

interface Holding {
  until: string;
  orderItemId: number | null;
  passId: number | null;
  /** The purchase category of the order behind a bought holding (member, direct, request); null for a pass. */
  category: string | null;
}

/**
 * What a licence holds: purchased lines (and the items of purchased packages) and pass downloads, each until its
 * end. Expired holdings are reported apart, so the caller can say they were left out; `ended` keeps, for each
 * expired item, the holding that ended last (where it came from and when it ended, for the download lists). A discontinued item is held
 * only through a purchase made before it was discontinued (decisions.md): a package bought later was priced without
 * it, so it is left out (`gone`), and so is what a pass or an unknown time would give.
 */
export async function holdings(
  db: DB,
  licenseId: number,
  now = new Date(),
): Promise<{ held: Map<number, Holding>; expired: Set<number>; ended: Map<number, Holding>; gone: Set<number> }> {
  const at = now.toISOString();
  const bought = await db
    .selectFrom("order_items")
    .innerJoin("orders", "orders.id", "order_items.order_id")
    .innerJoin("contents", "contents.id", "order_items.content_id")
    .select([
      "order_items.id",
      "order_items.content_id",
      "order_items.expires_at",
      "orders.created_at as ordered_at",
      "orders.purchase_category",
      "contents.contents_type",
      "contents.status",
      "contents.discontinued_at",
    ])
    .where("orders.license_id", "=", licenseId)
    .where("orders.status", "in", ["complete", "partially_cancelled"])
    .where("order_items.status", "=", "active")
    .execute();
  const packageIds = bought.filter((b) => b.contents_type === "package").map((b) => b.content_id as number);
  const bundled = packageIds.length
    ? await db
        .selectFrom("package_items")
        .innerJoin("contents", "contents.id", "package_items.content_id")
        .select(["package_items.package_id", "package_items.content_id", "contents.status", "contents.discontinued_at"])
        .where("package_items.package_id", "in", packageIds)
        .execute()
    : [];
  const passed = await db
    .selectFrom("downloads")
    .innerJoin("contents", "contents.id", "downloads.content_id")
    .select(["downloads.content_id", "downloads.expires_at", "downloads.pass_id", "contents.status"])
    .where("downloads.license_id", "=", licenseId)
    .where("downloads.pass_id", "is not", null)
    .execute();
  const held = new Map<number, Holding>();
  const expired = new Set<number>();
  const ended = new Map<number, Holding>();
  const gone = new Set<number>();
  /** A right to the content from something bought (or taken) at `since`; null since for a pass. */
  const covers = (c: { status: string; discontinued_at: string | null }, since: string | null) =>
    c.status === "active" || (since !== null && c.discontinued_at !== null && since < c.discontinued_at);
  const add = (contentId: number, until: string | null, orderItemId: number | null, passId: number | null, category: string | null) => {
    if (!until) return;
    if (until <= at) {
      const last = ended.get(contentId);
      if (!last || last.until < until) ended.set(contentId, { until, orderItemId, passId, category });
      if (!held.has(contentId)) expired.add(contentId);
      return;
    }
    expired.delete(contentId);
    gone.delete(contentId);
    const current = held.get(contentId);
    if (!current || current.until < until) held.set(contentId, { until, orderItemId, passId, category });
  };
  const leaveOut = (contentId: number, until: string | null) => {
    if (until && until > at && !held.has(contentId)) gone.add(contentId);
  };
  for (const b of bought) {
    if (covers(b, b.ordered_at)) add(b.content_id as number, b.expires_at, b.id, null, b.purchase_category);
    else leaveOut(b.content_id as number, b.expires_at);
    for (const item of bundled.filter((x) => x.package_id === b.content_id)) {
      if (covers(item, b.ordered_at)) add(item.content_id, b.expires_at, b.id, null, b.purchase_category);
      else leaveOut(item.content_id, b.expires_at);
    }
  }
  for (const p of passed) {
    if (p.status === "active") add(p.content_id, p.expires_at, null, p.pass_id, null);
    else leaveOut(p.content_id, p.expires_at);
  }
  for (const id of held.keys()) ended.delete(id);
  return { held, expired, ended, gone };
}

async function issueFileLink(
  db: DB,
  license: DownloadLicense,
  userId: number | null,
  content: { id: number; code: string; file_path: string | null },
  now: Date,
) {
  if (!content.file_path) return null;
  const token = newToken();
  const filename = `${content.code}${path.extname(content.file_path)}`;
  await db
    .insertInto("download_tokens")
    .values({
      id: sha256(token),
      kind: "file",
      license_id: license.id,
      user_id: userId,
      content_id: content.id,
      payload: JSON.stringify({ file: content.file_path, filename }),
      expires_at: new Date(now.getTime() + FILE_LINK_MS).toISOString(),
      created_at: now.toISOString(),
    })
    .execute();
  return { url: `/files/${token}`, filename };
}

/** Runs the checks and issues a signed link per granted file; what is left out says why. */
export async function requestDownloads(db: DB, input: DownloadRequest, locale: Locale = "en"): Promise<DownloadResult> {
  const now = input.now ?? new Date();
  checkInstallation(input.license, input.windows, now);
  const ids = [...new Set(input.contentIds)];
  if (ids.length === 0 || ids.length > 100) throw new MarketError("DOWNLOAD_EMPTY", 400, "There is no item available for download.");
  const rows = await db
    .selectFrom("contents")
    .select(["id", "code", "contents_type", "contents_type_sub", "title_ko", "title_en", "price_type", "status", "file_path"])
    .where("id", "in", ids)
    .execute();
  const { held, expired } = await holdings(db, input.license.id, now);
  const granted: GrantedFile[] = [];
  const skipped: DownloadResult["skipped"] = [];
  const pass =
    input.mode === "pass" && input.passId
      ? await db
          .selectFrom("passes")
          .innerJoin("pass_prices", "pass_prices.id", "passes.pass_price_id")
          .select([
            "passes.id",
            "passes.license_id",
            "passes.user_id",
            "passes.status",
            "passes.remaining",
            "passes.expires_at",
            "pass_prices.contents_flag",
            "pass_prices.contents_type_sub",
          ])
          .where("passes.id", "=", input.passId)
          .executeTakeFirst()
      : undefined;
  if (input.mode === "pass" && (!pass || (pass.license_id !== input.license.id && pass.user_id !== input.userId)))
    throw new MarketError("PASS_NOT_FOUND", 404, "No such pass for this licence");
  let paidBefore: boolean | null = null;

  for (const id of ids) {
    const c = rows.find((r) => r.id === id);
    if (!c) {
      skipped.push({ contentId: id, reason: "not_owned" });
      continue;
    }
    const title = locale === "ko" ? c.title_ko : c.title_en;
    const grant = async (deducted: boolean, kind: string, holding?: Holding) => {
      const link = await issueFileLink(db, input.license, input.userId, c, now);
      await db
        .insertInto("downloads")
        .values({
          content_id: c.id,
          license_id: input.license.id,
          user_id: input.userId,
          order_item_id: holding?.orderItemId ?? null,
          pass_id: null,
          kind,
          created_at: now.toISOString(),
          expires_at: holding?.until ?? null,
          request_id: null,
        })
        .execute();
      if (holding?.orderItemId)
        await db
          .updateTable("order_items")
          .set({ first_downloaded_at: now.toISOString() })
          .where("id", "=", holding.orderItemId)
          .where("first_downloaded_at", "is", null)
          .execute();
      if (link) granted.push({ contentId: c.id, code: c.code, title, filename: link.filename, url: link.url, deducted });
    };
    const holding = held.get(c.id);
    // Discontinued: only a purchase made before the discontinuation still reaches it (holdings).
    if (c.status !== "active" && !holding) {
      skipped.push({ contentId: id, reason: "discontinued" });
      continue;
    }
    // Held within its period: again at no cost, whatever was asked.
    if (holding) {
      await grant(false, holding.passId ? "pass" : "purchase", holding);
      continue;
    }
    if (c.price_type === "free" || c.price_type === "benefit") {
      if (input.userId === null) {
        skipped.push({ contentId: id, reason: "needs_account" });
        continue;
      }
      if (c.price_type === "benefit") {
        paidBefore ??= Boolean(
          await db
            .selectFrom("orders")
            .select("id")
            .where("user_id", "=", input.userId)
            .where("status", "in", ["complete", "partially_cancelled"])
            .executeTakeFirst(),
        );
        if (!paidBefore) {
          skipped.push({ contentId: id, reason: "needs_purchase" });
          continue;
        }
      }
      await grant(false, c.price_type);
      continue;
    }
    if (input.mode !== "pass" || !pass) {
      skipped.push({ contentId: id, reason: expired.has(c.id) ? "expired" : "not_owned" });
      continue;
    }
    const group = passGroupOfContent(c.contents_type as ContentsType, c.contents_type_sub);
    if (!group || group !== passGroupOf(pass.contents_flag, pass.contents_type_sub)) {
      skipped.push({ contentId: id, reason: "not_covered" });
      continue;
    }
    const state = passState({ status: pass.status, remaining: pass.remaining, expiresAt: pass.expires_at }, now);
    if (state === "expired" || state === "unavailable") {
      skipped.push({ contentId: id, reason: "expired" });
      continue;
    }
    if (state === "used_up") {
      skipped.push({ contentId: id, reason: "no_remaining" });
      continue;
    }
    // One deduction per pass and content: the partial unique index turns a repeat or a race into "already paid".
    const deducted = await db
      .transaction()
      .execute(async (trx) => {
        const inserted = await trx
          .insertInto("downloads")
          .values({
            content_id: c.id,
            license_id: input.license.id,
            user_id: input.userId,
            order_item_id: null,
            pass_id: pass.id,
            kind: "pass",
            created_at: now.toISOString(),
            expires_at: pass.expires_at,
            request_id: null,
          })
          .onConflict((oc) => oc.columns(["pass_id", "content_id"]).where("pass_id", "is not", null).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return "already" as const;
        const taken = await trx
          .updateTable("passes")
          .set((eb) => ({ remaining: eb("remaining", "-", 1) }))
          .where("id", "=", pass.id)
          .where("remaining", ">", 0)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) !== 1) throw new MarketError("PASS_EMPTY", 409, "no remaining downloads");
        return "deducted" as const;
      })
      .catch((error) => {
        if (error instanceof MarketError && error.code === "PASS_EMPTY") return "empty" as const;
        throw error;
      });
    if (deducted === "empty") {
      skipped.push({ contentId: id, reason: "no_remaining" });
      continue;
    }
    const link = await issueFileLink(db, input.license, input.userId, c, now);
    if (link)
      granted.push({ contentId: c.id, code: c.code, title, filename: link.filename, url: link.url, deducted: deducted === "deducted" });
  }

  const messages: DownloadResult["messages"] = [];
  if (skipped.some((s) => s.reason === "expired")) messages.push("expired_excluded");
  if (skipped.some((s) => s.reason === "no_remaining")) messages.push("no_remaining");
  if (skipped.some((s) => s.reason === "discontinued")) messages.push("discontinued");
  if (granted.length === 0) messages.push("nothing_available");
  return { granted, skipped, messages };
}

/** The file behind a signed link, while the link lives. */
export async function resolveFileLink(db: DB, token: string, now = new Date()): Promise<{ file: string; filename: string } | null> {
  if (!/^[\w-]{20,64}$/.test(token)) return null;
  const row = await db
    .selectFrom("download_tokens")
    .select(["payload", "expires_at", "kind"])
    .where("id", "=", sha256(token))
    .executeTakeFirst();
  if (row?.kind !== "file" || row.expires_at <= now.toISOString()) return null;
  return JSON.parse(row.payload) as { file: string; filename: string };
}

export interface BridgeRequest {
  licenseId: number;
  userId: number | null;
  contentIds: number[];
  mode: DownloadMode;
  passId?: number;
}

/** A one-time hand-over for the editor (deep link): the editor redeems it with its licence headers. */
export async function createBridge(db: DB, request: BridgeRequest, now = new Date()): Promise<string> {
  const token = newToken();
  await db
    .insertInto("download_tokens")
    .values({
      id: sha256(token),
      kind: "bridge",
      license_id: request.licenseId,
      user_id: request.userId,
      content_id: null,
      payload: JSON.stringify({ contentIds: request.contentIds, mode: request.mode, passId: request.passId }),
      expires_at: new Date(now.getTime() + BRIDGE_MS).toISOString(),
      created_at: now.toISOString(),
    })
    .execute();
  return token;
}

/**
 * The editor redeems a hand-over: only the licence it was made for, only once, only while it lives; then the
 * downloads run as if the editor had asked for them itself.
 */
export async function redeemBridge(db: DB, token: string, license: DownloadLicense, windows: boolean, locale: Locale, now = new Date()) {
  const id = /^[\w-]{20,64}$/.test(token) ? sha256(token) : "";
  const claimed = await db
    .updateTable("download_tokens")
    .set({ redeemed_at: now.toISOString() })
    .where("id", "=", id)
    .where("kind", "=", "bridge")
    .where("license_id", "=", license.id)
    .where("redeemed_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1)
    throw new MarketError("BRIDGE_INVALID", 410, "This download link has expired or was already used");
  const row = await db.selectFrom("download_tokens").select(["payload", "user_id"]).where("id", "=", id).executeTakeFirstOrThrow();
  const request = JSON.parse(row.payload) as { contentIds: number[]; mode: DownloadMode; passId?: number };
  return requestDownloads(
    db,
    { license, userId: row.user_id, contentIds: request.contentIds, mode: request.mode, passId: request.passId, windows, now },
    locale,
  );
}
