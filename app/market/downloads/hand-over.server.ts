import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import { activeBenefitIds, type BenefitReason, benefitEligibility } from "./benefits.server";
import { checkInstallation, createBridge, type DownloadLicense } from "./downloads.server";
import { downloadLibrary } from "./library.server";

/**
 * A hand-over of chosen items from a web page (the storefront's /mypage/download, the webview's download page):
 * the installation checks, then only what the licence holds within its period (or took for free before) goes;
 * the rest is left out and `excluded` says so. No token when nothing is left.
 */
export async function startHandOver(
  db: DB,
  input: { license: DownloadLicense; userId: number | null; selected: number[]; windows: boolean; locale: Locale },
  now = new Date(),
): Promise<{ token: string | null; excluded: boolean }> {
  checkInstallation(input.license, input.windows, now);
  const selected = [...new Set(input.selected)];
  const library = await downloadLibrary(db, input.license.id, input.locale, now);
  const held = library.items.filter((i) => selected.includes(i.contentId) && !i.expired && !i.discontinued).map((i) => i.contentId);
  const extras = library.extras
    .filter((i) => selected.includes(i.contentId) && !i.discontinued && !held.includes(i.contentId))
    .map((i) => i.contentId);
  const contentIds = [...held, ...extras];
  const excluded = selected.length > contentIds.length;
  if (contentIds.length === 0) return { token: null, excluded };
  const token = await createBridge(db, { licenseId: input.license.id, userId: input.userId, contentIds, mode: "owned" }, now);
  return { token, excluded };
}

/**
 * A hand-over of chosen benefit items (mode "free"): the installation checks, the licence must be eligible (a
 * market account with a paid purchase; `refused` says which is missing), and only active benefit content goes.
 * No token when nothing is left.
 */
export async function startBenefitHandOver(
  db: DB,
  input: { license: DownloadLicense; selected: number[]; windows: boolean },
  now = new Date(),
): Promise<{ token: string | null; refused: BenefitReason | null }> {
  checkInstallation(input.license, input.windows, now);
  const { eligible, reason } = await benefitEligibility(db, input.license);
  if (!eligible) return { token: null, refused: reason };
  const contentIds = await activeBenefitIds(db, [...new Set(input.selected)]);
  if (contentIds.length === 0) return { token: null, refused: null };
  const token = await createBridge(db, { licenseId: input.license.id, userId: input.license.userId, contentIds, mode: "free" }, now);
  return { token, refused: null };
}
