import type { Kysely } from "kysely";
import { isPostgres } from "../dialect";

/**
 * Media jobs (app/market/catalog/media-jobs.server.ts): the previews of an item the console created from an
 * uploaded file (a video's clip and poster, an audio waveform, a font's subset check), made after the response by
 * one process at a time (the job lease). State queued → running → done | failed, progress 0-100, the error.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema.createTable("media_jobs");
  await (isPostgres(db)
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("content_id", "integer", (c) => c.notNull().references("contents.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("source_path", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("progress", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    .execute();
  await db.schema.createIndex("media_jobs_state_idx").on("media_jobs").columns(["state", "id"]).execute();
  await db.schema.createIndex("media_jobs_content_idx").on("media_jobs").column("content_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("media_jobs").ifExists().execute();
}
