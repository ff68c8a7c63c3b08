import { type Kysely, sql } from "kysely";
import { AUDIT_GENESIS, type AuditChained, auditRowHash } from "../audit-chain";
import { isPostgres } from "../dialect";

/**
 * The audit log becomes append-only and chained (issue 25 point 7):
 *  - each row gets `seq` (its place in the chain, unique), `prev_hash` and `hash` (app/db/audit-chain.ts); the rows
 *    already written are chained here, in id order;
 *  - triggers refuse every UPDATE and DELETE of `audit_log` (and TRUNCATE on PostgreSQL), whoever sends them: the
 *    store's database user owns its tables, so a REVOKE would not hold against it. A row without its chain columns is
 *    refused too (SQLite; PostgreSQL has NOT NULL).
 * What a trigger cannot stop (the owner dropping the trigger or the table, or editing the SQLite file) shows in the
 * console, which checks the chain.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("audit_log").addColumn("seq", "integer").execute();
  await db.schema.alterTable("audit_log").addColumn("prev_hash", "text").execute();
  await db.schema.alterTable("audit_log").addColumn("hash", "text").execute();
  const rows = (await db.selectFrom("audit_log").selectAll().orderBy("id").execute()) as (AuditChained & { id: number })[];
  let prev = AUDIT_GENESIS;
  let seq = 0;
  for (const row of rows) {
    seq += 1;
    const hash = auditRowHash(prev, { ...row, seq });
    await db.updateTable("audit_log").set({ seq, prev_hash: prev, hash }).where("id", "=", row.id).execute();
    prev = hash;
  }
  await db.schema.createIndex("audit_log_seq_uq").unique().on("audit_log").column("seq").execute();
  if (isPostgres(db)) {
    for (const column of ["seq", "prev_hash", "hash"])
      await sql`ALTER TABLE audit_log ALTER COLUMN ${sql.ref(column)} SET NOT NULL`.execute(db);
    await sql`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege'; END $$`.execute(
      db,
    );
    await sql`CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(
      db,
    );
    await sql`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`.execute(
      db,
    );
  } else {
    await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: UPDATE refused'); END`.execute(
      db,
    );
    await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: DELETE refused'); END`.execute(
      db,
    );
    await sql`CREATE TRIGGER audit_log_chained BEFORE INSERT ON audit_log WHEN NEW.seq IS NULL OR NEW.prev_hash IS NULL OR NEW.hash IS NULL BEGIN SELECT RAISE(ABORT, 'audit_log rows carry seq, prev_hash and hash'); END`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log`.execute(db);
    await sql`DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log`.execute(db);
    await sql`DROP FUNCTION IF EXISTS audit_log_append_only()`.execute(db);
  } else {
    for (const name of ["audit_log_no_update", "audit_log_no_delete", "audit_log_chained"])
      await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  }
  await db.schema.dropIndex("audit_log_seq_uq").ifExists().execute();
  for (const column of ["hash", "prev_hash", "seq"]) await db.schema.alterTable("audit_log").dropColumn(column).execute();
}
