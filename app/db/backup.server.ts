import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import type PG from "pg";
import { loadPg } from "./db.server";

/**
 * A consistent copy of the store's database while the store keeps serving, and its restore into an empty one.
 * SQLite: the online backup API (pages copied in steps; writers go on, the copy is of one moment). PostgreSQL:
 * pg_dump inside a snapshot exported by a repeatable-read transaction, so the row counts written beside the dump
 * are of the very moment the dump holds. The counts of every table are what a restore is checked against.
 */

export type Engine = "sqlite" | "postgres";

export interface DatabaseCopy {
  engine: Engine;
  /** The file in the backup folder: `database.sqlite` or `database.pgdump` (pg_dump's custom format). */
  file: string;
  /** Rows per table at the moment of the copy (the migrations' own table included). */
  tables: Record<string, number>;
}

export const engineOf = (url: string): Engine => (/^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite");
const sqliteFileOf = (url: string) => path.resolve(url.replace(/^file:/, ""));

/** Copies the database at `url` into `folder`; answers what it wrote and the row counts of the copy. */
export async function backupDatabase(url: string, folder: string): Promise<DatabaseCopy> {
  if (engineOf(url) === "sqlite") {
    const source = sqliteFileOf(url);
    if (!fs.existsSync(source)) throw new Error(`DATABASE_URL ${url}: there is no database file at ${source}`);
    const file = "database.sqlite";
    const live = new SQLite(source, { readonly: true, fileMustExist: true });
    try {
      // Pages go over in steps of 256 with the source unlocked between them; a write in between restarts the
      // copy of what changed, so the result is the database at one moment.
      await live.backup(path.join(folder, file), { progress: () => 256 });
    } finally {
      live.close();
    }
    // The copy keeps the source's WAL mode in its header; rollback mode makes it one self-contained file.
    const copy = new SQLite(path.join(folder, file), { fileMustExist: true });
    try {
      copy.pragma("journal_mode = DELETE");
      return { engine: "sqlite", file, tables: sqliteCounts(copy) };
    } finally {
      copy.close();
    }
  }
  const file = "database.pgdump";
  const client = new (loadPg().Client)({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const snapshot = (await client.query<{ id: string }>("SELECT pg_export_snapshot() AS id")).rows[0].id;
    const tables = await pgCounts(client);
    await run(pgTool("pg_dump"), [
      "--format=custom",
      "--no-owner",
      "--no-acl",
      `--snapshot=${snapshot}`,
      `--file=${path.join(folder, file)}`,
      url,
    ]);
    await client.query("COMMIT");
    return { engine: "postgres", file, tables };
  } finally {
    await client.end();
  }
}

/** Whether the database at `url` holds no table (or, for SQLite, does not exist yet). */
export async function isEmptyDatabase(url: string): Promise<boolean> {
  if (engineOf(url) === "sqlite") {
    const file = sqliteFileOf(url);
    if (!fs.existsSync(file) || fs.statSync(file).size === 0) return true;
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      return Object.keys(sqliteCounts(db)).length === 0;
    } finally {
      db.close();
    }
  }
  const client = new (loadPg().Client)({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
    );
    return Number(rows[0].n) === 0;
  } finally {
    await client.end();
  }
}

/** Fills the empty database at `url` from a copy made by backupDatabase; answers the restored row counts. */
export async function restoreDatabase(
  url: string,
  folder: string,
  copy: Pick<DatabaseCopy, "engine" | "file">,
): Promise<Record<string, number>> {
  const engine = engineOf(url);
  if (engine !== copy.engine)
    throw new Error(`the backup holds a ${copy.engine} database and DATABASE_URL names ${engine}: restore into the same engine`);
  const source = path.join(folder, copy.file);
  if (!fs.existsSync(source)) throw new Error(`the backup has no ${copy.file}`);
  if (engine === "sqlite") {
    const target = sqliteFileOf(url);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    for (const f of [`${target}-wal`, `${target}-shm`]) fs.rmSync(f, { force: true });
    // Through a temporary name: a store started on the target never sees half a file.
    fs.copyFileSync(source, `${target}.restoring`);
    fs.renameSync(`${target}.restoring`, target);
    const db = new SQLite(target, { readonly: true, fileMustExist: true });
    try {
      return sqliteCounts(db);
    } finally {
      db.close();
    }
  }
  await run(pgTool("pg_restore"), ["--no-owner", "--no-acl", "--exit-on-error", "--single-transaction", `--dbname=${url}`, source]);
  const client = new (loadPg().Client)({ connectionString: url });
  await client.connect();
  try {
    return await pgCounts(client);
  } finally {
    await client.end();
  }
}

function sqliteCounts(db: SQLite.Database): Record<string, number> {
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  return Object.fromEntries(
    names.map((n) => [
      n,
      Number(
        db
          .prepare(`SELECT count(*) FROM "${n.replaceAll('"', '""')}"`)
          .pluck()
          .get(),
      ),
    ]),
  );
}

async function pgCounts(client: PG.Client): Promise<Record<string, number>> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const out: Record<string, number> = {};
  for (const { name } of rows) {
    const r = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`);
    out[name] = Number(r.rows[0].n);
  }
  return out;
}

/**
 * pg_dump or pg_restore: PG_BIN_DIR's, else the newest of Debian's /usr/lib/postgresql/<major>/bin (a dump needs a
 * pg_dump at least as new as the server), else the one on PATH.
 */
export function pgTool(name: "pg_dump" | "pg_restore"): string {
  const dir = process.env.PG_BIN_DIR;
  if (dir) return path.join(dir, name);
  const root = "/usr/lib/postgresql";
  const majors = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((d) => fs.existsSync(path.join(root, d, "bin", name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return majors.length ? path.join(root, majors[0], "bin", name) : name;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
    });
    child.on("error", (error) => reject(new Error(`${path.basename(command)} could not be run: ${error.message}`)));
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(command)} failed (exit ${code}): ${stderr.trim().split("\n").slice(-3).join(" ")}`)),
    );
  });
}
