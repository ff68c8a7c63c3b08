import { LRUCache } from "lru-cache";
import type { DB } from "../../db/db.server";
import { type Storage, storageKey } from "../../integrations/storage/storage";
import { contentVersion } from "../content-version.server";
import { MarketError } from "../errors";
import { FONT_PREVIEW_MAX } from "../rules";
import { isSfnt, subsetSfnt } from "./harfbuzz.server";
import { sfntToWoff2 } from "./woff2.server";

/** The preview's default sample line per language, used until the visitor types their own text. */
export const FONT_SAMPLE = { ko: "다람쥐 헌 쳇바퀴에 타고파", en: "The quick brown fox jumps over the lazy dog" } as const;

/** Subsets made, least recently used out first past 4 MiB (a subset of a sample line is 4 to 8 KB). */
export const FONT_SUBSET_CACHE_BYTES = 4 * 1024 * 1024;
const cache = new LRUCache<string, Buffer>({
  maxSize: FONT_SUBSET_CACHE_BYTES,
  // One subset at most an eighth of the room, so one huge font cannot empty the cache.
  maxEntrySize: FONT_SUBSET_CACHE_BYTES / 8,
  sizeCalculation: (subset, key) => subset.length + key.length * 2 + 128,
});
/** Subsets being made: concurrent requests for the same one wait for it. */
const making = new Map<string, Promise<Buffer>>();

/** subset-font, for fonts that are not TrueType/OpenType (it converts them first); loaded only then. */
let subsetter: Promise<typeof import("subset-font").default> | undefined;
const loadSubsetter = () => {
  subsetter ??= import("subset-font").then((m) => m.default);
  return subsetter;
};

/** A TrueType subset: harfbuzz directly for an sfnt font (the stored fonts are TrueType), subset-font otherwise. */
async function subsetOf(font: Buffer, glyphs: string): Promise<Buffer> {
  if (isSfnt(font)) return subsetSfnt(font, glyphs);
  return (await loadSubsetter())(font, glyphs, { targetFormat: "truetype" });
}

/**
 * A WOFF2 subset of a font item holding only the glyphs of `text` (at most 100 characters): previews
 * never ship the whole font, which stays in private storage.
 */
export async function fontSubset(db: DB, storage: Storage, code: string, text: string): Promise<Buffer> {
  const chars = [...text];
  if (chars.length > FONT_PREVIEW_MAX) throw new MarketError("TEXT_TOO_LONG", 400, `text: at most ${FONT_PREVIEW_MAX} characters`);
  const item = await db.selectFrom("contents").select(["file_path", "contents_type"]).where("code", "=", code).executeTakeFirst();
  if (item?.contents_type !== "font" || !item.file_path) throw new MarketError("NOT_FOUND", 404, `No font with contents_code ${code}`);
  const glyphs = [...new Set([...chars, ..."0123456789 "])].sort().join("");
  // The catalog's version is part of the key: a font replaced from the console (on any server) is cut afresh.
  const key = `${await contentVersion(db)}\u0000${code}\u0000${glyphs}`;
  const held = cache.get(key);
  if (held) return held;
  let subset = making.get(key);
  if (!subset) {
    const file = storageKey("storage", item.file_path);
    // harfbuzz cuts the glyphs out (as TrueType); our WOFF2 writer compresses them with Node's Brotli.
    subset = storage
      .read(file)
      .then((font) => {
        if (!font) throw new MarketError("NOT_FOUND", 404, `No font with contents_code ${code}`);
        return subsetOf(font, glyphs);
      })
      .then(sfntToWoff2);
    making.set(key, subset);
    subset.then(
      (made) => {
        making.delete(key);
        cache.set(key, made);
      },
      () => making.delete(key),
    );
  }
  return subset;
}

/** The subset's address, used by the font preview. */
export const fontSubsetUrl = (code: string, text: string) =>
  `/api/v1/font/subset?contents_code=${encodeURIComponent(code)}&text=${encodeURIComponent(text)}`;
