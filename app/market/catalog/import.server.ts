import type { DB } from "../../db/db.server";
import type { ContentsType } from "../../db/schema";
import { ALIAS_SHEET_LIMITS, readSheet, type SheetRefusal, SheetRefused } from "../alias-sheet.server";
import { type Actor, recordAudit } from "../operators/audit.server";
import { reindexContents } from "../search/indexer.server";
import { parseContentForm } from "./content-schema.server";
import { insertItem } from "./create.server";
import { CONTENT_TYPES } from "./detail.server";
import { type ContentInput, type ContentProblem, checkContentInput } from "./manage.server";

/**
 * Bulk import of catalog items from a sheet (CSV or XLSX, read as hostile input by the alias sheet's reader: size,
 * zip directory and row limits, parsed in a worker with a heap limit and a deadline). The first row names the
 * columns; each following row is one item, checked by the same schema and rules as the console's form. The rows
 * that pass are created in one transaction (each with its audit line, indexed for search together, and a line for
 * the import itself); the others are reported by their row number in the sheet and why. Imported items have no
 * media file yet (an operator adds the item with its file in the console).
 */

export const IMPORT_COLUMNS = [
  "type",
  "title_ko",
  "title_en",
  "description_ko",
  "description_en",
  "tags_ko",
  "tags_en",
  "price_type",
  "price_krw",
  "price_usd",
  "category",
  "genre",
  "mood",
  "bpm",
  "audio_sub",
] as const;
const REQUIRED = ["type", "title_ko", "title_en"] as const;
/** Cells read per row: the known columns and a few unknown ones a sheet may put between them. */
const READ_COLUMNS = 24;

/** The sheet form's read limits (app/utils/multipart.server.ts): the file and a few small fields. */
export const IMPORT_FORM_LIMITS = {
  maxFileBytes: ALIAS_SHEET_LIMITS.maxBytes,
  maxBodyBytes: ALIAS_SHEET_LIMITS.maxBytes + 64 * 1024,
  maxParts: 8,
};

export type RowProblem = ContentProblem | "type" | "duplicate";
export type ImportRefusal = SheetRefusal | "header" | "missing";

export interface ImportReport {
  total: number;
  accepted: { row: number; id: number; code: string; titleKo: string; titleEn: string }[];
  rejected: { row: number; problem: RowProblem }[];
}

/** Reads a sheet and creates its valid rows in one transaction; answers the report, or why the sheet was not read. */
export async function importCatalogSheet(
  db: DB,
  actor: Actor,
  file: { name: string; bytes: Uint8Array } | null,
  now = new Date(),
): Promise<{ ok: true; report: ImportReport } | { ok: false; refusal: ImportRefusal }> {
  if (!file || file.bytes.length === 0) return { ok: false, refusal: "missing" };
  let sheet: { rows: string[][]; numbers: number[] };
  try {
    sheet = await readSheet(file.name, file.bytes, ALIAS_SHEET_LIMITS, READ_COLUMNS);
  } catch (error) {
    if (error instanceof SheetRefused) return { ok: false, refusal: error.reason };
    throw error;
  }
  if (sheet.rows.length - 1 > ALIAS_SHEET_LIMITS.maxRows) return { ok: false, refusal: "too_many_rows" };
  const header = (sheet.rows[0] ?? []).map((h) =>
    h
      .trim()
      .toLowerCase()
      .replace(/^\uFEFF/, ""),
  );
  const at = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<(typeof IMPORT_COLUMNS)[number], number>;
  if (REQUIRED.some((c) => at[c] < 0)) return { ok: false, refusal: "header" };

  const terms = await db.selectFrom("taxonomy").select(["id", "kind", "space", "code"]).execute();
  const termId = (kind: string, code: string, space?: string) =>
    terms.find((t) => t.kind === kind && t.code === code && (space === undefined || t.space === space))?.id;

  const report: ImportReport = { total: sheet.rows.length - 1, accepted: [], rejected: [] };
  const valid: { row: number; type: ContentsType; input: ContentInput }[] = [];
  const seen = new Set<string>();
  for (let i = 1; i < sheet.rows.length; i++) {
    const cells = sheet.rows[i];
    const row = sheet.numbers[i] ?? i + 1;
    const cell = (c: (typeof IMPORT_COLUMNS)[number]) => (at[c] >= 0 ? (cells[at[c]] ?? "").trim() : "");
    const type = cell("type").toLowerCase();
    if (!(CONTENT_TYPES as readonly string[]).includes(type)) {
      report.rejected.push({ row, problem: "type" });
      continue;
    }
    // Taxonomy by its code; a code that names nothing is refused as that field.
    const taxonomy = (kind: "category" | "genre" | "mood", space?: string): string | null => {
      const code = cell(kind);
      if (!code) return "";
      const id = termId(kind, code, space);
      return id === undefined ? null : String(id);
    };
    const category = taxonomy("category", type);
    const genre = taxonomy("genre");
    const mood = taxonomy("mood");
    if (category === null || genre === null || mood === null) {
      report.rejected.push({ row, problem: category === null ? "category" : genre === null ? "genre" : "mood" });
      continue;
    }
    const parsed = parseContentForm({
      titleKo: cell("title_ko"),
      titleEn: cell("title_en"),
      descriptionKo: cell("description_ko"),
      descriptionEn: cell("description_en"),
      tagsKo: cell("tags_ko"),
      tagsEn: cell("tags_en"),
      priceType: cell("price_type").toLowerCase() || "paid",
      priceKrw: cell("price_krw").replaceAll(",", ""),
      priceUsd: cell("price_usd").replaceAll(",", ""),
      categoryId: category,
      genreId: genre,
      moodId: mood,
      bpm: cell("bpm"),
      audioSub: cell("audio_sub"),
    });
    if (!parsed.ok) {
      report.rejected.push({ row, problem: parsed.problem });
      continue;
    }
    const problem = await checkContentInput(db, type as ContentsType, parsed.input);
    if (problem) {
      report.rejected.push({ row, problem });
      continue;
    }
    const key = `${type}\u0000${parsed.input.titleKo.trim()}\u0000${parsed.input.titleEn.trim()}`;
    if (seen.has(key)) {
      report.rejected.push({ row, problem: "duplicate" });
      continue;
    }
    seen.add(key);
    valid.push({ row, type: type as ContentsType, input: parsed.input });
  }

  if (valid.length) {
    await db.transaction().execute(async (trx) => {
      for (const v of valid) {
        const made = await insertItem(trx, actor, v.type, v.input, null, [], now, { reindex: false });
        report.accepted.push({ row: v.row, ...made, titleKo: v.input.titleKo.trim(), titleEn: v.input.titleEn.trim() });
      }
      await reindexContents(
        trx,
        report.accepted.map((a) => a.id),
      );
      await recordAudit(
        trx,
        actor,
        {
          action: "content.import",
          targetType: "content",
          after: { file: file.name.slice(0, 200), accepted: report.accepted.map((a) => a.code), rejected: report.rejected },
        },
        now,
      );
    });
  }
  return { ok: true, report };
}

/** The codes a sheet names taxonomy by: each type's categories, the genres and the moods. */
export async function importCodes(db: DB) {
  const rows = await db
    .selectFrom("taxonomy")
    .select(["kind", "space", "code", "name_ko", "name_en"])
    .where("kind", "in", ["category", "genre", "mood"])
    .orderBy("kind")
    .orderBy("space")
    .orderBy("sort")
    .execute();
  return rows.map((r) => ({ kind: r.kind, space: r.space, code: r.code, nameKo: r.name_ko, nameEn: r.name_en }));
}
