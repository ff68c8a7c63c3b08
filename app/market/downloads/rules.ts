import type { ContentsType } from "../../db/schema";
import type { PassGroup } from "../pass-groups";
import { MIN_EDITOR_VERSION } from "../rules";

/** Dotted editor versions compared part by part: 2.0.10.0.0 is newer than 2.0.4.7.0. */
export function versionAtLeast(version: string | null | undefined, minimum = MIN_EDITOR_VERSION): boolean {
  if (!version || !/^\d+(\.\d+)*$/.test(version.trim())) return false;
  const a = version.trim().split(".").map(Number);
  const b = minimum.split(".").map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** Downloads run only on Windows (the editor's platform); other systems get the spec's message. */
export function isWindows(userAgent: string | null | undefined): boolean {
  return /Windows/i.test(userAgent ?? "");
}

/** The editor's webview on a Mac (its user agent names macOS): downloads are Windows-only (spec section 6). */
export function isMacOs(userAgent: string | null | undefined): boolean {
  return !isWindows(userAgent) && /Macintosh|Mac OS X/i.test(userAgent ?? "");
}

/** The pass group that covers a content item (packages have none). */
export function passGroupOfContent(type: ContentsType, sub: number | null): PassGroup | null {
  if (type === "video") return "video";
  if (type === "icon") return "image";
  if (type === "font") return "font";
  if (type === "audio") return sub === 3001 ? "audio_se" : sub === 3003 ? "audio_ai" : "audio_bgm";
  return null;
}

/** Why an item was left out of a download (each maps to a spec message). */
export const SKIP_REASONS = [
  "expired",
  "discontinued",
  "not_owned",
  "no_remaining",
  "needs_account",
  "needs_purchase",
  "not_covered",
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
