import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import type { ContentsType } from "../../db/schema";
import type { Storage } from "../../integrations/storage/storage";
import { MarketError } from "../errors";
import { type Actor, recordAudit } from "../operators/audit.server";
import { reindexContents } from "../search/indexer.server";
import { type ContentInput, type ContentProblem, checkContentInput, contentColumns, contentSnapshot } from "./manage.server";
import { checkMediaFile, type FileProblem, type MediaKind } from "./media-files.server";
import { queueMediaJob } from "./media-jobs.server";

/**
 * Creating an item from the console or a sheet: the fields checked by the catalog's rules, the uploaded original
 * checked by its bytes and kept in private storage (storage/uploads/), the item inserted, indexed for
 * search and its previews queued as a media job, all in one transaction with the audit line (content.create).
 */

/** Code prefixes by type, as the demo catalog has them (VI0000001 ...). */
const PREFIX: Record<ContentsType, string> = { video: "VI", icon: "IC", audio: "AU", font: "FO", package: "PA" };

/** The next free code of a type: its prefix and one more than the highest 7-digit number in use. */
export async function nextContentCode(db: DB, type: ContentsType): Promise<string> {
  const prefix = PREFIX[type];
  // Codes of one length compare as their numbers do, so the highest is one index read.
  const row = await db
    .selectFrom("contents")
    .select((eb) => eb.fn.max("code").as("code"))
    .where("code", "like", `${prefix}_______`)
    .where(sql`length(code)`, "=", 9)
    .executeTakeFirst();
  const n = /^[A-Z]{2}(\d{7})$/.exec(String(row?.code ?? ""))?.[1];
  return `${prefix}${String((n ? Number(n) : 0) + 1).padStart(7, "0")}`;
}

export interface NewItem {
  type: ContentsType;
  input: ContentInput;
  /** The uploaded original (required but for a package, whose file is an optional cover picture). */
  file?: Uint8Array | null;
}

export type CreateResult = { ok: true; id: number; code: string } | { ok: false; problem: ContentProblem | FileProblem };

interface Staged {
  storage: Storage;
  kind: MediaKind;
  /** The key it was written under; moved to `storage/uploads/<code>.<kind>` with its row. */
  temp: string;
}

/** Where uploaded originals are kept (the rows' file_path is `uploads/<code>.<kind>`, below `storage/`). */
const UPLOADS = "storage/uploads/";

async function stage(storage: Storage, kind: MediaKind, bytes: Uint8Array): Promise<Staged> {
  const temp = `${UPLOADS}.tmp-${randomBytes(8).toString("hex")}.${kind}`;
  try {
    await storage.put(temp, bytes);
  } catch (error) {
    await storage.delete(temp).catch(() => {});
    throw error;
  }
  return { storage, kind, temp };
}

/**
 * Inserts a checked item with its staged file inside a transaction the caller holds (the sheet import inserts many
 * in one). The file is moved into place under the item's code; the caller removes `finals` (keys) if the
 * transaction fails after.
 */
export async function insertItem(
  trx: DB,
  actor: Actor,
  type: ContentsType,
  input: ContentInput,
  file: { staged: Staged; size: number } | null,
  finals: string[],
  now: Date,
  options: { reindex?: boolean } = {},
): Promise<{ id: number; code: string }> {
  const code = await nextContentCode(trx, type);
  const filePath = file ? `uploads/${code}.${file.staged.kind}` : null;
  const row = await trx
    .insertInto("contents")
    .values({
      code,
      contents_type: type,
      ...contentColumns(input),
      duration_ms: null,
      width: null,
      height: null,
      preview_path: null,
      poster_path: null,
      font_family: type === "font" ? input.titleEn.trim() : null,
      file_path: filePath,
      file_size: file ? file.size : null,
      status: "active",
      popularity: 0,
      sales_count: 0,
      released_at: now.toISOString(),
      created_at: now.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (file && filePath) {
    const final = `storage/${filePath}`;
    finals.push(final);
    await file.staged.storage.move(file.staged.temp, final);
    await queueMediaJob(trx, row.id, type, filePath, now);
  }
  // A batch (the sheet import) indexes its items together at the end.
  if (options.reindex !== false) await reindexContents(trx, [row.id]);
  await recordAudit(
    trx,
    actor,
    { action: "content.create", targetType: "content", targetId: row.id, after: await contentSnapshot(trx, row.id) },
    now,
  );
  return { id: row.id, code };
}

/** Creates one item with its file (see above); refused fields or file come back as a problem (nothing written). */
export async function createContent(db: DB, storage: Storage, actor: Actor, item: NewItem, now = new Date()): Promise<CreateResult> {
  const checked = await checkMediaFile(item.type, item.file ?? null);
  if (checked !== null && !isKind(checked)) return { ok: false, problem: checked };
  const problem = await checkContentInput(db, item.type, item.input);
  if (problem) return { ok: false, problem };
  const staged = checked && item.file ? await stage(storage, checked, item.file) : null;
  const finals: string[] = [];
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const made = await db
          .transaction()
          .execute((trx) =>
            insertItem(trx, actor, item.type, item.input, staged && item.file ? { staged, size: item.file.length } : null, finals, now),
          );
        return { ok: true, ...made };
      } catch (error) {
        // Two creations at once may pick the same next code (PostgreSQL, read committed): the second takes the next.
        if (attempt < 4 && codeTaken(error)) continue;
        throw error;
      }
    }
  } catch (error) {
    if (staged) await storage.delete(staged.temp);
    for (const f of finals) await storage.delete(f);
    throw error;
  }
}

/** The unique index on contents.code refused the insert. */
function codeTaken(error: unknown): boolean {
  const e = error as { message?: unknown; constraint?: unknown };
  return e?.constraint === "contents_code_uq" || /contents_code_uq|UNIQUE constraint failed: contents\.code/.test(String(e?.message ?? ""));
}

/**
 * Replaces (or gives) an item its media file: checked like a new item's, renamed into place with the row's change,
 * its previews queued again. Audit: content.media_replace. A previous upload of another kind is removed after the
 * commit; files outside storage/uploads (the demo catalog's shared pool) are never removed.
 */
export async function replaceMediaFile(
  db: DB,
  storage: Storage,
  actor: Actor,
  id: number,
  bytes: Uint8Array | null,
  now = new Date(),
): Promise<{ ok: true } | { ok: false; problem: FileProblem }> {
  const item = await db.selectFrom("contents").select(["id", "code", "contents_type", "file_path"]).where("id", "=", id).executeTakeFirst();
  if (!item) throw new MarketError("NOT_FOUND", 404, `No item ${id}`);
  const checked = await checkMediaFile(item.contents_type, bytes);
  if (checked === null || !bytes) return { ok: false, problem: "fileMissing" };
  if (!isKind(checked)) return { ok: false, problem: checked };
  const staged = await stage(storage, checked, bytes);
  const filePath = `uploads/${item.code}.${checked}`;
  const final = `storage/${filePath}`;
  try {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("contents").set({ file_path: filePath, file_size: bytes.length }).where("id", "=", id).execute();
      await storage.move(staged.temp, final);
      await queueMediaJob(trx, id, item.contents_type, filePath, now);
      await recordAudit(
        trx,
        actor,
        {
          action: "content.media_replace",
          targetType: "content",
          targetId: id,
          before: { file_path: item.file_path },
          after: { file_path: filePath, file_size: bytes.length },
        },
        now,
      );
    });
  } catch (error) {
    await storage.delete(staged.temp);
    // The move may have replaced an earlier upload of the same name; the row still names it, so it is not removed.
    if (item.file_path !== filePath) await storage.delete(final);
    throw error;
  }
  if (item.file_path && item.file_path !== filePath && /^uploads[\\/][A-Z]{2}\d{7}\.[a-z0-9]+$/.test(item.file_path))
    await storage.delete(`storage/${item.file_path.replace(/\\/g, "/")}`);
  return { ok: true };
}

const KINDS = new Set<string>(["mp4", "mp3", "wav", "png", "svg", "ttf", "otf"]);
const isKind = (v: string): v is MediaKind => KINDS.has(v);

export { type Staged as StagedMedia, stage as stageMediaFile };
