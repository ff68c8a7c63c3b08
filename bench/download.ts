// Download throughput of a 50 MB file over loopback, and the server's memory while it serves 20 at once
// (the file must stream, not sit in memory).   node --import tsx bench/download.ts
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, migrateToLatest } from "../app/db/db.server";
import { seedDatabase } from "../app/db/seed/index.server";

const SIZE = 50 * 1024 * 1024;
const PORT = 3390;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "market-dl-bench-"));
const url = `file:${tmp}/bench.sqlite`;
const db = createDb(url);
await migrateToLatest(db);
await seedDatabase(db, { size: 30, dataDir: tmp });
fs.mkdirSync(path.join(tmp, "storage", "bench"), { recursive: true });
const file = path.join(tmp, "storage", "bench", "big.bin");
const chunk = randomBytes(1024 * 1024);
fs.writeFileSync(file, Buffer.alloc(0));
for (let i = 0; i < SIZE / chunk.length; i++) fs.appendFileSync(file, chunk);
const content = await db.selectFrom("contents").select("id").orderBy("id").executeTakeFirstOrThrow();
const license = await db.selectFrom("licenses").select("id").orderBy("id").executeTakeFirstOrThrow();
const token = randomBytes(24).toString("base64url");
await db
  .insertInto("download_tokens")
  .values({
    id: createHash("sha256").update(token).digest("hex"),
    kind: "file",
    license_id: license.id,
    user_id: null,
    content_id: content.id,
    payload: JSON.stringify({ file: "bench/big.bin", filename: "big.bin" }),
    expires_at: new Date(Date.now() + 600_000).toISOString(),
    created_at: new Date().toISOString(),
  })
  .execute();
await db.destroy();

const server = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    HOST: "127.0.0.1",
    DATABASE_URL: url,
    DATA_DIR: tmp,
    AUTO_SEED: "false",
    LOG_REQUESTS: "false",
    SESSION_SECRET: "bench-secret-bench-secret",
  },
  stdio: "ignore",
});
const base = `http://127.0.0.1:${PORT}`;
for (let i = 0; i < 300; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 100));
}
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

async function download(): Promise<number> {
  const res = await fetch(`${base}/files/${token}`);
  let bytes = 0;
  for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) bytes += part.length;
  return bytes;
}

await download(); // warm up
const idle = rss();
let t0 = performance.now();
const one = await download();
const single = { mb: one / 1048576, seconds: (performance.now() - t0) / 1000 };
let peak = rss();
const sampler = setInterval(() => {
  peak = Math.max(peak, rss());
}, 25);
t0 = performance.now();
const many = await Promise.all(Array.from({ length: 20 }, download));
const parallelSeconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
server.kill("SIGTERM");
fs.rmSync(tmp, { recursive: true, force: true });
console.log(
  JSON.stringify(
    {
      fileMB: 50,
      single: { MBps: Math.round(single.mb / single.seconds), seconds: Math.round(single.seconds * 100) / 100 },
      twentyAtOnce: {
        complete: many.every((b) => b === SIZE),
        totalMB: Math.round(many.reduce((a, b) => a + b, 0) / 1048576),
        seconds: Math.round(parallelSeconds * 100) / 100,
        aggregateMBps: Math.round(many.reduce((a, b) => a + b, 0) / 1048576 / parallelSeconds),
      },
      serverRssMB: { idle: Math.round(idle), peakDuring20: Math.round(peak), growth: Math.round(peak - idle) },
    },
    null,
    2,
  ),
);
process.exit(0);
