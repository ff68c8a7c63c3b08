/**
 * npm run backup / npm run restore (issue 28.5): a backup taken while checkouts keep going restores into a fresh
 * database and data folder with every order, download right and file; a store that is not empty is refused.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isEmptyDatabase } from "../../app/db/backup.server";
import { createDb, type DB } from "../../app/db/db.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { createLocalStorage } from "../../app/integrations/storage/index.server";
import { placeOrder } from "../../app/market/orders/orders.server";
import { backupStore, restoreStore } from "../../scripts/backup-store";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE, PG_URL } from "../support/engine";
import { newShopper } from "../support/shopper";

/** Runs `npm run <script> -- <folder>` as the operator would, against the given store. */
function npmRun(script: "backup" | "restore", folder: string, env: { DATABASE_URL: string; DATA_DIR: string }) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, folder], {
      env: { ...process.env, ...env, STORAGE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      out += d;
    });
    child.on("close", (code) => resolve({ code: code ?? -1, out: out.trim() }));
  });
}

const sha = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

function filesUnder(root: string, sub: string): string[] {
  const base = path.join(root, sub);
  if (!fs.existsSync(base)) return [];
  return (fs.readdirSync(base, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(base, f)).isFile() && !path.basename(f).startsWith(".part-"))
    .map((f) => path.join(sub, f))
    .sort();
}

describe(`backup and restore of a store under load on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let url: string;
  let dataDir: string;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "market-backup-"));
  const restoredDbs: string[] = [];

  /** An empty database to restore into: a new SQLite path, or a new PostgreSQL database. */
  async function emptyDatabase(): Promise<string> {
    if (!PG_URL) return `file:${path.join(tmp, `restored-${randomBytes(3).toString("hex")}.sqlite`)}`;
    const name = `market_r${randomBytes(5).toString("hex")}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    restoredDbs.push(name);
    const u = new URL(PG_URL);
    u.pathname = `/${name}`;
    return u.toString();
  }

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    url = t.url;
    // A data folder of its own (the seeded one is shared with other files): the store's files as seeded.
    dataDir = path.join(tmp, "store");
    fs.cpSync(t.dataDir, dataDir, { recursive: true, filter: (src) => !src.endsWith(".sqlite") && !src.includes(".sqlite-") });
    call = await createTestApp(db, { dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
  }, 120_000);
  afterAll(async () => {
    await sandbox.settled();
    await drop();
    if (PG_URL) {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      for (const name of restoredDbs) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("restores every order, download right and file of a backup taken while checkouts go on, and refuses a store that is not empty", async () => {
    const paid = await db
      .selectFrom("contents")
      .select("id")
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .orderBy("id")
      .limit(60)
      .execute();
    let next = 0;
    const buyOne = async () => {
      const s = await newShopper(db);
      const items = [paid[next++ % paid.length], paid[next++ % paid.length]].map((c) => ({ kind: "content" as const, id: c.id }));
      const placed = await placeOrder(db, call.payments, {
        buyer: { id: s.userId, userType: 1, email: s.email },
        items,
        license: { licenseId: s.licenseId },
        method: "card",
        locale: "en",
        idempotencyKey: `backup:${s.userId}`,
        origin: "http://store.test",
      });
      await sandbox.act(placed.orderNo, "approve");
      return placed.orderNo;
    };
    // Orders paid before the backup starts: every one must come back.
    const before: string[] = [];
    for (let i = 0; i < 4; i++) before.push(await buyOne());
    await sandbox.settled();

    // Checkouts keep going, two at a time, for as long as the backup runs.
    let running = true;
    const during: string[] = [];
    const load = Promise.all(
      [0, 1].map(async () => {
        while (running) during.push(await buyOne());
      }),
    );
    const folder = path.join(tmp, "backup");
    const backup = await npmRun("backup", folder, { DATABASE_URL: url, DATA_DIR: dataDir });
    running = false;
    await load;
    await sandbox.settled();
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toMatch(new RegExp(`^backup of ${ENGINE} written to .*: \\d+ tables, \\d+ rows, \\d+ files`));
    expect(during.length, "checkouts went on during the backup").toBeGreaterThan(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, "manifest.json"), "utf8"));

    // Restore into a fresh database and data folder.
    const target = { DATABASE_URL: await emptyDatabase(), DATA_DIR: path.join(tmp, "restored") };
    const restore = await npmRun("restore", folder, target);
    expect(restore.code, restore.out).toBe(0);
    const restored = createDb(target.DATABASE_URL, { poolSize: 2 });
    try {
      // Every table as it was at the backup's moment (the counts the backup recorded from its own snapshot).
      for (const [table, n] of Object.entries(manifest.database.tables as Record<string, number>)) {
        const row = await restored
          .selectFrom(table as "orders")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow();
        expect(Number(row.n), table).toBe(n);
      }
      // Every order paid before the backup, complete, with its lines (the download rights) and its payment.
      const orderOf = async (store: DB, orderNo: string) => {
        const order = await store.selectFrom("orders").selectAll().where("order_no", "=", orderNo).executeTakeFirst();
        const lines = order
          ? await store
              .selectFrom("order_items")
              .select(["content_id", "unit_price", "status", "expires_at"])
              .where("order_id", "=", order.id)
              .orderBy("id")
              .execute()
          : [];
        return { status: order?.status, total: order?.total, lines };
      };
      for (const orderNo of before) {
        const original = await orderOf(db, orderNo);
        expect(original.status).toBe("complete");
        expect(await orderOf(restored, orderNo)).toEqual(original);
      }
      // An order taken during the backup is there whole or not at all: never an order without its lines.
      const restoredDuring = await restored.selectFrom("orders").select("order_no").where("order_no", "in", during).execute();
      for (const { order_no } of restoredDuring) {
        const copy = await orderOf(restored, order_no);
        expect(copy.lines.length, order_no).toBe(2);
      }
      // Every file, byte for byte, and every original a content row names.
      const files = [...filesUnder(dataDir, "storage"), ...filesUnder(dataDir, "media")];
      expect(files.length).toBeGreaterThan(20);
      expect([...filesUnder(target.DATA_DIR, "storage"), ...filesUnder(target.DATA_DIR, "media")]).toEqual(files);
      for (const f of files) expect(sha(path.join(target.DATA_DIR, f)), f).toBe(sha(path.join(dataDir, f)));
      const originals = await restored.selectFrom("contents").select("file_path").where("file_path", "is not", null).execute();
      for (const { file_path } of originals)
        expect(fs.existsSync(path.join(target.DATA_DIR, "storage", file_path as string)), file_path as string).toBe(true);
    } finally {
      await restored.destroy();
    }

    // A store that is not empty is refused and left as it was (in-process: the command's own code, without another
    // process start on a busy machine).
    const local = (dir: string) => createLocalStorage(dir);
    await expect(restoreStore(target.DATABASE_URL, local(target.DATA_DIR), folder)).rejects.toThrow(
      /^DATABASE_URL .* is not empty: a restore fills only an empty database \(nothing was changed\)$/,
    );
    const filesOnly = await emptyDatabase();
    await expect(restoreStore(filesOnly, local(target.DATA_DIR), folder)).rejects.toThrow(/^the store's files \(DATA_DIR\) are not empty/);
    expect(await isEmptyDatabase(filesOnly)).toBe(true);
    // A backup never goes over another.
    await expect(backupStore(url, local(dataDir), folder)).rejects.toThrow(/is not empty: a backup goes into a new or empty folder/);
  }, 240_000);
});
