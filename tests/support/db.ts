import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { createDb, type DB } from "../../app/db/db.server";
import { PG_URL } from "./engine";

/** A private copy of the seeded template database for one test file. */
export async function createTestDb(): Promise<{ db: DB; url: string; dataDir: string; drop: () => Promise<void> }> {
  const template = inject("templateDb");
  const dataDir = inject("dataDir");
  const name = `market_t${randomBytes(5).toString("hex")}`;
  if (PG_URL) {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    const db = createDb(url.toString(), { poolSize: 4 });
    return {
      db,
      url: url.toString(),
      dataDir,
      drop: async () => {
        await db.destroy();
        const a = new pg.Client({ connectionString: PG_URL });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await a.end();
      },
    };
  }
  const file = path.join(path.dirname(template), `${name}.sqlite`);
  fs.copyFileSync(template, file);
  const db = createDb(`file:${file}`);
  return {
    db,
    url: `file:${file}`,
    dataDir,
    drop: async () => {
      await db.destroy();
      for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    },
  };
}
