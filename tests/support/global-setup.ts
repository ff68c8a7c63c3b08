import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createDb, migrateToLatest } from "../../app/db/db.server";
import { seedDatabase } from "../../app/db/seed/index.server";
import { PG_URL, TEST_SEED_SIZE } from "./engine";

/**
 * Builds one migrated and seeded template database per run; each test file then gets its own copy
 * (a file copy for SQLite, CREATE DATABASE ... TEMPLATE for PostgreSQL).
 */
export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "market-test-"));
  if (PG_URL) {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    // One template per project (vitest.config.ts has two integration projects, each with this setup).
    const template = `market_template_${project.name.replace(/[^a-z]/g, "_")}`;
    await admin.query(`DROP DATABASE IF EXISTS "${template}"`);
    await admin.query(`CREATE DATABASE "${template}"`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${template}`;
    const db = createDb(url.toString(), { poolSize: 2 });
    await migrateToLatest(db);
    await seedDatabase(db, { size: TEST_SEED_SIZE, dataDir });
    await db.destroy();
    project.provide("templateDb", template);
  } else {
    const file = path.join(dataDir, "template.sqlite");
    const db = createDb(`file:${file}`);
    await migrateToLatest(db);
    await seedDatabase(db, { size: TEST_SEED_SIZE, dataDir });
    await db.destroy();
    project.provide("templateDb", file);
  }
  project.provide("dataDir", dataDir);
  return async () => {
    if (PG_URL) {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      const { rows } = await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'market_t%'");
      // (Every project's copies and templates: teardowns run once all projects' tests have ended.)
      for (const r of rows) await admin.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
      await admin.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
    dataDir: string;
  }
}
