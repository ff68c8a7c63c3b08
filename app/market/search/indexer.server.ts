import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import { isPostgres } from "../../db/dialect";
import { indexTokens } from "./analyze";
import { type ItemTokens, rebuildPostings, updatePostings } from "./postings.server";

const CHUNK = 500;

/**
 * A tsvector in PostgreSQL's input format: the tokens as lexemes, taken literally (no parser), without
 * positions (the fields are separate vectors, so no weights are needed).
 */
export function tsvectorText(tokens: string[]): string {
  return tokens.map((t) => `'${t.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`).join(" ");
}

/**
 * Writes the search index entries of the given items (all items when `ids` is omitted), replacing what was
 * there: every change to the catalog calls this for the items it touched, so the index stays in step.
 */
export async function reindexContents(db: DB, ids?: number[]): Promise<number> {
  const pg = isPostgres(db);
  let done = 0;
  let lastId = 0;
  for (;;) {
    const rows = await db
      .selectFrom("contents")
      .leftJoin("taxonomy as cat", "cat.id", "contents.category_id")
      .leftJoin("taxonomy as genre", "genre.id", "contents.genre_id")
      .leftJoin("taxonomy as mood", "mood.id", "contents.mood_id")
      .select([
        "contents.id",
        "contents.title_ko",
        "contents.title_en",
        "contents.tags_ko",
        "contents.tags_en",
        "contents.description_ko",
        "contents.description_en",
        "cat.name_ko as cat_ko",
        "cat.name_en as cat_en",
        "genre.name_ko as genre_ko",
        "genre.name_en as genre_en",
        "mood.name_ko as mood_ko",
        "mood.name_en as mood_en",
      ])
      .$if(ids !== undefined, (q) => q.where("contents.id", "in", ids?.length ? ids : [-1]))
      .where("contents.id", ">", lastId)
      .orderBy("contents.id")
      .limit(CHUNK)
      .execute();
    if (!rows.length) break;
    lastId = rows[rows.length - 1].id;
    const docs = rows.map((r) => ({
      id: r.id,
      title: indexTokens(`${r.title_ko} ${r.title_en}`),
      tags: indexTokens(
        [r.tags_ko, r.tags_en, r.cat_ko, r.cat_en, r.genre_ko, r.genre_en, r.mood_ko, r.mood_en]
          .filter(Boolean)
          .join(" ")
          .replaceAll(",", " "),
      ),
      body: indexTokens(`${r.description_ko} ${r.description_en}`),
    }));
    const chunkIds = docs.map((d) => d.id);
    if (pg) {
      // What each item held, for the stored bitsets (a full rebuild makes them anew at the end).
      const before = new Map<number, ItemTokens>();
      if (ids !== undefined) {
        const { rows: held } = await sql<ItemTokens & { id: number }>`SELECT d.content_id AS id, tsvector_to_array(d.document) AS document,
          tsvector_to_array(f.title) AS title, tsvector_to_array(f.tags) AS tags
          FROM search_documents d JOIN search_fields f ON f.content_id = d.content_id WHERE d.content_id IN (${sql.join(chunkIds)})`.execute(
          db,
        );
        for (const { id, ...tokens } of held) before.set(id, tokens);
      }
      await db
        .deleteFrom("search_documents" as never)
        .where("content_id" as never, "in", chunkIds as never)
        .execute();
      await db
        .deleteFrom("search_fields" as never)
        .where("content_id" as never, "in", chunkIds as never)
        .execute();
      const vector = (tokens: string[]) => sql`CAST(${tsvectorText(tokens)} AS tsvector)`;
      await sql`INSERT INTO search_documents (content_id, document) VALUES ${sql.join(docs.map((d) => sql`(${d.id}, ${vector([...d.title, ...d.tags, ...d.body])})`))}`.execute(
        db,
      );
      await sql`INSERT INTO search_fields (content_id, title, tags) VALUES ${sql.join(docs.map((d) => sql`(${d.id}, ${vector(d.title)}, ${vector(d.tags)})`))}`.execute(
        db,
      );
      if (ids !== undefined)
        await updatePostings(
          db,
          docs.map((d) => ({
            id: d.id,
            before: before.get(d.id) ?? null,
            after: { document: [...d.title, ...d.tags, ...d.body], title: d.title, tags: d.tags },
          })),
        );
    } else {
      // What each item held (its FTS5 row keeps the tokens as written), for the stored bitsets.
      const before = new Map<number, ItemTokens>();
      if (ids !== undefined) {
        const { rows: held } = await sql<{
          id: number;
          title: string;
          tags: string;
          body: string;
        }>`SELECT rowid AS id, title, tags, body FROM search_fts WHERE rowid IN (${sql.join(chunkIds)})`.execute(db);
        const split = (text: string) => text.split(" ").filter(Boolean);
        for (const h of held)
          before.set(h.id, {
            document: [...split(h.title), ...split(h.tags), ...split(h.body)],
            title: split(h.title),
            tags: split(h.tags),
          });
      }
      await sql`DELETE FROM search_fts WHERE rowid IN (${sql.join(chunkIds)})`.execute(db);
      await sql`INSERT INTO search_fts (rowid, title, tags, body) VALUES ${sql.join(
        docs.map((d) => sql`(${d.id}, ${d.title.join(" ")}, ${d.tags.join(" ")}, ${d.body.join(" ")})`),
      )}`.execute(db);
      if (ids !== undefined)
        await updatePostings(
          db,
          docs.map((d) => ({
            id: d.id,
            before: before.get(d.id) ?? null,
            after: { document: [...d.title, ...d.tags, ...d.body], title: d.title, tags: d.tags },
          })),
        );
    }
    const terms = [...new Set(docs.flatMap((d) => [...d.title, ...d.tags, ...d.body]).filter((t) => /^[a-z]{4,}$/.test(t)))];
    if (terms.length) {
      await db
        .insertInto("search_terms")
        .values(terms.map((term) => ({ term, length: term.length })))
        .onConflict((oc) => oc.column("term").doNothing())
        .execute();
    }
    done += rows.length;
  }
  if (ids === undefined) await rebuildPostings(db);
  return done;
}

/**
 * Builds the search index when the catalog has items but the index has none (a database that existed
 * before the search migration, one whose index a migration rebuilt, or one restored without it). Called at
 * start; cheap when the index is there. One transaction, so a build cut short leaves no half index behind.
 */
export async function ensureSearchIndex(db: DB): Promise<number> {
  const table = isPostgres(db) ? sql`search_documents` : sql`search_fts`;
  if (await hasRows(db, table)) {
    // An index without stored bitsets (a SQLite database from before migration 0025): they are made from it.
    // A catalog too small for any frequent key has none either, and makes none again, at little cost.
    if (!(await hasRows(db, sql`search_postings`))) await db.transaction().execute((trx) => rebuildPostings(trx));
    return 0;
  }
  const any = await db.selectFrom("contents").select("id").limit(1).executeTakeFirst();
  return any ? db.transaction().execute((trx) => reindexContents(trx)) : 0;
}

async function hasRows(db: DB, table: ReturnType<typeof sql>): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM ${table} LIMIT 1) AS t`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}
