import fs from "node:fs/promises";
import path from "node:path";
import subsetFont from "subset-font";
import type { DB } from "../../db/db.server";
import { MarketError } from "../errors";
import { FONT_PREVIEW_MAX } from "../rules";

/** The preview's default sample line per language, used until the visitor types their own text. */
export const FONT_SAMPLE = { ko: "다람쥐 헌 쳇바퀴에 타고파", en: "The quick brown fox jumps over the lazy dog" } as const;

const cache = new Map<string, Promise<Buffer>>();
const CACHE_MAX = 300;

/**
 * A WOFF2 subset of a font item holding only the glyphs of `text` (at most 100 characters): previews
 * never ship the whole font, which stays in private storage.
 */
export async function fontSubset(db: DB, dataDir: string, code: string, text: string): Promise<Buffer> {
  const chars = [...text];
  if (chars.length > FONT_PREVIEW_MAX) throw new MarketError("TEXT_TOO_LONG", 400, `text: at most ${FONT_PREVIEW_MAX} characters`);
  const item = await db.selectFrom("contents").select(["file_path", "contents_type"]).where("code", "=", code).executeTakeFirst();
  if (item?.contents_type !== "font" || !item.file_path) throw new MarketError("NOT_FOUND", 404, `No font with contents_code ${code}`);
  const glyphs = [...new Set([...chars, ..."0123456789 "])].sort().join("");
  const key = `${code}\u0000${glyphs}`;
  let subset = cache.get(key);
  if (!subset) {
    const file = path.join(dataDir, "storage", item.file_path);
    subset = fs.readFile(file).then((buf) => subsetFont(buf, glyphs, { targetFormat: "woff2" }));
    subset.catch(() => cache.delete(key));
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(key, subset);
  }
  return subset;
}

/** The subset's address, used by the font preview. */
export const fontSubsetUrl = (code: string, text: string) =>
  `/api/v1/font/subset?contents_code=${encodeURIComponent(code)}&text=${encodeURIComponent(text)}`;
