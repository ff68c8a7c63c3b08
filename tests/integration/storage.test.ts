import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { eventImagePng } from "../../app/db/seed/event-images";
import { publishMediaPool } from "../../app/db/seed/media.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { createStorage, streamToBuffer } from "../../app/integrations/storage/index.server";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { createS3Storage } from "../../app/integrations/storage/s3.server";
import { serveMedia } from "../../app/integrations/storage/serve.server";
import type { Storage } from "../../app/integrations/storage/storage";
import { runMediaJobs } from "../../app/market/catalog/media-jobs.server";
import { fileInquiry, sweepStaleAttachments } from "../../app/market/support.server";
import { parseEnv } from "../../app/utils/env.server";
import { checkHealth } from "../../app/utils/health.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { EditorSimulator } from "../support/editor";
import { ENGINE } from "../support/engine";
import { freePort } from "../support/net";
import { signInOperator } from "../support/operator";
import { startS3 } from "../support/s3";
import { newShopper } from "../support/shopper";

let s3: Awaited<ReturnType<typeof startS3>>;
let localRoot: string;
beforeAll(async () => {
  s3 = await startS3();
  localRoot = fs.mkdtempSync(path.join(os.tmpdir(), "storage-contract-"));
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(localRoot, { recursive: true, force: true });
});

const bytes = (text: string) => new TextEncoder().encode(text);
/** Deterministic bytes of any length (not all alike, so a misplaced range shows). */
const pattern = (length: number) => {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + (i >> 8)) & 0xff;
  return out;
};

const implementations: [string, () => Storage][] = [
  ["local disk", () => createLocalStorage(localRoot)],
  [
    "S3 (s3rver)",
    () => createStorage(parseEnv({ STORAGE_URL: `${s3.url.replace("market-test?", "market-test/contract?")}`, DATA_DIR: localRoot })),
  ],
];

describe.each(implementations)("the storage contract on the %s", (_name, make) => {
  let storage: Storage;
  beforeAll(() => {
    storage = make();
  });

  it("puts bytes and reads them back whole, as a stream and by range, with their size and a validator", async () => {
    await storage.put("storage/contract/a.txt", bytes("0123456789abcdef"));
    expect((await storage.read("storage/contract/a.txt"))?.toString()).toBe("0123456789abcdef");
    const stat = await storage.stat("storage/contract/a.txt");
    expect(stat?.size).toBe(16);
    expect(stat?.etag).toMatch(/^".+"$/);
    expect(Math.abs((stat?.modified.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    const whole = await storage.get("storage/contract/a.txt");
    expect((await streamToBuffer(whole as Readable)).toString()).toBe("0123456789abcdef");
    const part = await storage.get("storage/contract/a.txt", { start: 3, end: 6 });
    expect((await streamToBuffer(part as Readable)).toString()).toBe("3456");
    const tail = await storage.get("storage/contract/a.txt", { start: 15, end: 15 });
    expect((await streamToBuffer(tail as Readable)).toString()).toBe("f");
  });

  it("answers null for a missing key (get, read, stat) and deletes one without complaint", async () => {
    expect(await storage.get("storage/contract/missing.bin")).toBeNull();
    expect(await storage.get("storage/contract/missing.bin", { start: 0, end: 3 })).toBeNull();
    expect(await storage.read("storage/contract/missing.bin")).toBeNull();
    expect(await storage.stat("storage/contract/missing.bin")).toBeNull();
    expect(await storage.stat("storage/contract")).toBeNull(); // a folder is not a file
    await storage.delete("storage/contract/missing.bin");
  });

  it("overwrites a key (new bytes, new size, new validator) and deletes it", async () => {
    await storage.put("media/contract/b.json", bytes('{"v":1}'));
    const first = await storage.stat("media/contract/b.json");
    await new Promise((r) => setTimeout(r, 1100)); // a validator may be made of the second it changed
    await storage.put("media/contract/b.json", bytes('{"v":22}'));
    const second = await storage.stat("media/contract/b.json");
    expect((await storage.read("media/contract/b.json"))?.toString()).toBe('{"v":22}');
    expect(second?.size).toBe(8);
    expect(second?.etag).not.toBe(first?.etag);
    await storage.delete("media/contract/b.json");
    expect(await storage.stat("media/contract/b.json")).toBeNull();
  });

  it("moves a key, and lists a prefix with sizes (nested keys included, neighbours not)", async () => {
    await storage.put("storage/list/.tmp-x.png", bytes("xx"));
    await storage.move("storage/list/.tmp-x.png", "storage/list/x.png");
    expect(await storage.stat("storage/list/.tmp-x.png")).toBeNull();
    expect((await storage.read("storage/list/x.png"))?.toString()).toBe("xx");
    await storage.put("storage/list/deeper/y.png", bytes("yyy"));
    await storage.put("storage/listed-elsewhere/z.png", bytes("z"));
    const listed = await storage.list("storage/list/");
    expect(listed.map((f) => [f.key, f.size])).toEqual([
      ["storage/list/deeper/y.png", 3],
      ["storage/list/x.png", 2],
    ]);
    expect(listed.every((f) => f.modified instanceof Date)).toBe(true);
    expect(await storage.list("storage/nothing-here/")).toEqual([]);
  });

  it("takes a large stream (in parts on S3) and serves any range of it", async () => {
    const big = pattern(20 * 1024 * 1024 + 123);
    // Chunks of 1 MiB, as a file or an upload would come.
    const chunks = function* () {
      for (let i = 0; i < big.length; i += 1024 * 1024) yield big.subarray(i, i + 1024 * 1024);
    };
    await storage.put("storage/contract/big.bin", Readable.from(chunks()));
    expect((await storage.stat("storage/contract/big.bin"))?.size).toBe(big.length);
    const from = 9 * 1024 * 1024 - 7; // across the first part's end on S3
    const range = await streamToBuffer((await storage.get("storage/contract/big.bin", { start: from, end: from + 99 })) as Readable);
    expect(range.equals(big.subarray(from, from + 100))).toBe(true);
    const whole = await streamToBuffer((await storage.get("storage/contract/big.bin")) as Readable);
    expect(whole.equals(big)).toBe(true);
  }, 60_000);

  it("refuses keys that would leave its root or prefix", async () => {
    for (const key of ["../escape.txt", "storage/../../escape.txt", "/abs.txt", "storage//x", "storage/./x", "a\\b", ""]) {
      await expect(storage.put(key, bytes("no")), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.stat(key), key).rejects.toThrow(/unsafe storage key/);
    }
    expect(fs.existsSync(path.join(localRoot, "..", "escape.txt"))).toBe(false);
  });

  it("gives a presigned address on S3 (fetchable without credentials, for a short while) and none on the local disk", async () => {
    await storage.put("storage/contract/signed.txt", bytes("signed bytes"));
    const url = await storage.presignedGet("storage/contract/signed.txt", { expiresInS: 60, filename: "x.txt" });
    if (storage.kind === "local") return expect(url).toBeNull();
    expect(url).toMatch(/X-Amz-Signature=/);
    const res = await fetch(url as string);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("signed bytes");
  });
});

describe("STORAGE_URL", () => {
  it("is parsed into bucket, prefix, endpoint, region and path style, and a bad one names the variable", () => {
    expect(parseEnv({ STORAGE_URL: "s3://shop-files/prod/eu?endpoint=http://127.0.0.1:4569/&region=eu-west-1" }).STORAGE_URL).toEqual({
      bucket: "shop-files",
      prefix: "prod/eu/",
      endpoint: "http://127.0.0.1:4569",
      region: "eu-west-1",
      forcePathStyle: true,
    });
    expect(parseEnv({ STORAGE_URL: "s3://shop-files" }).STORAGE_URL).toEqual({
      bucket: "shop-files",
      prefix: "",
      endpoint: undefined,
      region: "us-east-1",
      forcePathStyle: false,
    });
    expect(parseEnv({}).STORAGE_URL).toBeUndefined();
    for (const bad of [
      "http://shop-files/x",
      "s3://Shop_Files",
      "s3://shop-files?endpoint=ftp://x",
      "s3://shop-files?regio=x",
      "s3://shop-files/a/../b",
    ])
      expect(() => parseEnv({ STORAGE_URL: bad }), bad).toThrow(/STORAGE_URL: /);
  });
});

describe(`the health check with an object store on ${ENGINE}`, () => {
  it("is ok while the store answers, and 503-worthy (not ok, storage unreachable) when it does not", async () => {
    const t = await createTestDb();
    try {
      const reachable = createStorage(parseEnv({ STORAGE_URL: s3.url, DATA_DIR: localRoot }));
      const up = await checkHealth(t.db, localRoot, { storage: reachable });
      expect(up).toMatchObject({ ok: true, database: "ok", storage: "ok" });
      // The same bucket on a port nobody listens on: the lookup fails (or outlives the check's wait).
      const closed = await freePort();
      const gone = createStorage(
        parseEnv({
          STORAGE_URL: s3.url.replace(encodeURIComponent(s3.endpoint), encodeURIComponent(`http://127.0.0.1:${closed}`)),
          DATA_DIR: localRoot,
        }),
      );
      const started = Date.now();
      const down = await checkHealth(t.db, localRoot, { storage: gone, storageTimeoutMs: 1500 });
      expect(down).toMatchObject({ ok: false, database: "ok", storage: "unreachable" });
      expect(down.disk.ok).toBe(true);
      expect(Date.now() - started).toBeLessThan(5000);
      // The local disk is covered by the disk check.
      expect((await checkHealth(t.db, localRoot, { storage: createLocalStorage(localRoot) })).storage).toBe("ok");
    } finally {
      await t.drop();
    }
  });
});

describe(`downloads and previews served from an S3-compatible store on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let dataDir: string;
  let storage: Storage;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    dataDir = t.dataDir;
    storage = createS3Storage(parseEnv({ STORAGE_URL: s3.url.replace("market-test?", "market-test/shop?") }).STORAGE_URL as never);
    // The demo catalog's files, copied into the object store as a server does at its first start there.
    expect(await publishMediaPool(dataDir, storage)).toBeGreaterThan(40);
    expect(await publishMediaPool(dataDir, storage)).toBe(0);
    call = await createTestApp(db, { dataDir, storage });
  }, 120_000);
  afterAll(async () => {
    await (call?.payments.sandbox as SandboxGateway | undefined)?.settled();
    await drop?.();
  });

  it("streams a bought item through /files/{token} with ranges, and keeps every link rule", async () => {
    const item = await db
      .selectFrom("contents")
      .select(["id", "code", "file_path"])
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .where("contents_type", "=", "audio")
      .where("file_path", "is not", null)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const s = await newShopper(db);
    const res = await call("/api/v1/payments", {
      method: "POST",
      body: JSON.stringify({
        items: [{ kind: "content", id: item.id }],
        license_id: s.licenseId,
        method: "card",
        agree_terms: true,
        agree_paid: true,
        idempotency_key: `s3-download-${s.userId}`,
      }),
      headers: { authorizationToken: s.token, "content-type": "application/json" },
    });
    const orderNo = ((await res.json()) as { data: { order_no: string } }).data.order_no;
    const sandbox = call.payments.sandbox as SandboxGateway;
    await sandbox.act(orderNo, "approve");
    await sandbox.settled();
    const editor = new EditorSimulator(call, s.serial, s.hwInfo);
    const got = await editor.download([item.code]);
    const file = got.json.data.granted[0] as { url: string; filename: string };
    // The bytes come from the object store: the local copy is not what is served.
    const original = (await storage.read(`storage/${item.file_path}`)) as Buffer;
    expect(original.length).toBeGreaterThan(1000);
    const whole = await editor.fetchFile(file.url);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(original)).toBe(true);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("content-type")).toBe("audio/wav");
    expect(whole.headers.get("content-disposition")).toContain(file.filename);
    expect(whole.headers.get("cache-control")).toBe("private, no-store, no-transform");
    const part = await editor.fetchFile(file.url, "bytes=100-199");
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${original.length}`);
    expect(part.headers.get("content-length")).toBe("100");
    expect(part.body.equals(original.subarray(100, 200))).toBe(true);
    const suffix = await editor.fetchFile(file.url, "bytes=-10");
    expect(suffix.body.equals(original.subarray(original.length - 10))).toBe(true);
    expect((await editor.fetchFile(file.url, `bytes=${original.length}-`)).status).toBe(416);
    // Counted once: one first download on the order line, however many requests the file took.
    const line = await db.selectFrom("order_items").select("first_downloaded_at").where("content_id", "=", item.id).execute();
    expect(line.filter((l) => l.first_downloaded_at)).toHaveLength(1);
    // A made-up link, then this one after its 10 minutes: 410, whatever the store holds.
    expect((await editor.fetchFile("/files/not-a-real-token-0000000000")).status).toBe(410);
    const token = file.url.split("/").pop() as string;
    const { createHash } = await import("node:crypto");
    await db
      .updateTable("download_tokens")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", createHash("sha256").update(token).digest("hex"))
      .execute();
    expect((await editor.fetchFile(file.url)).status).toBe(410);
  });

  it("answers 404 for a live link whose file is not in the store", async () => {
    const { createHash, randomBytes } = await import("node:crypto");
    const token = randomBytes(24).toString("base64url");
    const s = await newShopper(db);
    await db
      .insertInto("download_tokens")
      .values({
        id: createHash("sha256").update(token).digest("hex"),
        kind: "file",
        license_id: s.licenseId,
        user_id: s.userId,
        content_id: null,
        payload: JSON.stringify({ file: "uploads/gone.mp4", filename: "gone.mp4" }),
        expires_at: new Date(Date.now() + 60_000).toISOString(),
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await call(`/files/${token}`)).status).toBe(404);
  });

  it("serves /media previews from the store: type, day-long caching, validators (304) and ranges", async () => {
    const request = (headers: Record<string, string> = {}, method = "GET") => ({ method, headers: new Headers(headers) });
    const original = (await storage.read("media/icons/icon-0.svg")) as Buffer;
    const res = (await serveMedia(storage, "/icons/icon-0.svg", request())) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(Buffer.from(await res.arrayBuffer()).equals(original)).toBe(true);
    const etag = res.headers.get("etag") as string;
    expect(etag).toMatch(/^".+"$/);
    expect((await serveMedia(storage, "/icons/icon-0.svg", request({ "if-none-match": etag })))?.status).toBe(304);
    const part = (await serveMedia(storage, "/icons/icon-0.svg", request({ range: "bytes=0-4" }))) as Response;
    expect(part.status).toBe(206);
    expect(await part.text()).toBe(original.subarray(0, 5).toString());
    expect((await serveMedia(storage, "/icons/icon-0.svg", request({}, "HEAD")))?.headers.get("content-length")).toBe(
      String(original.length),
    );
    // Not previews: a missing name, the private folder, a dot-file, a climb out.
    for (const p of [
      "/icons/nope.svg",
      "/../storage/fonts/font-0.ttf",
      "/%2e%2e/storage/fonts/font-0.ttf",
      "/.complete-v2",
      "/icons//icon-0.svg",
    ])
      expect(await serveMedia(storage, p, request()), p).toBeNull();
    expect(await serveMedia(storage, "/icons/icon-0.svg", request({}, "POST"))).toBeNull();
  });

  it("keeps a console upload in the store, makes its previews there with the media job, and serves them at /media", async () => {
    const cookie = `${await signInOperator(call, "catalog", "198.51.100.181")}; lng=en`;
    const body = new FormData();
    const fields: Record<string, string> = {
      type: "icon",
      titleKo: "저장소 배지 한국어",
      titleEn: "Storage badge",
      descriptionKo: "업로드 테스트",
      descriptionEn: "Uploaded in a test",
      tagsKo: "테스트",
      tagsEn: "test",
      priceType: "paid",
      priceKrw: "5000",
      priceUsd: "399",
    };
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    const png = eventImagePng(3);
    body.append("file", new File([png as BlobPart], "badge.png", { type: "application/octet-stream" }));
    const res = await call("/admin/catalog/new", {
      method: "POST",
      headers: { "accept-language": "en", cookie },
      body,
      ip: "198.51.100.181",
    });
    expect(res.status).toBe(302);
    const row = await db.selectFrom("contents").selectAll().where("title_en", "=", "Storage badge").executeTakeFirstOrThrow();
    expect(row.file_path).toBe(`uploads/${row.code}.png`);
    expect((await storage.read(`storage/${row.file_path}`))?.equals(png)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "storage", row.file_path as string))).toBe(false);
    expect((await storage.list("storage/uploads/")).some((f) => f.key.includes(".tmp-"))).toBe(false);
    expect(await runMediaJobs(db, storage)).toEqual({ done: 1, failed: 0 });
    const after = await db.selectFrom("contents").select("preview_path").where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(after.preview_path).toBe(`/media/uploads/${row.code}/picture.png`);
    const served = (await serveMedia(storage, `/uploads/${row.code}/picture.png`, { method: "GET", headers: new Headers() })) as Response;
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it("keeps inquiry attachments in the store for their owner, and sweeps half-written ones there", async () => {
    const s = await newShopper(db);
    const png = eventImagePng(1);
    const id = await fileInquiry(db, storage, s.userId, {
      category: "download",
      title: "Stored far away",
      description: "In the bucket.",
      email: s.email,
      attachment: png,
    });
    const res = await call(`/mypage/qna/${id}/attachment`, { headers: { cookie: s.jar.header } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    expect((await call(`/mypage/qna/${id}/attachment`, { headers: { cookie: (await newShopper(db)).jar.header } })).status).toBe(404);
    await storage.put("storage/inquiries/.tmp-2026-01-01-crashed.png", png);
    const later = new Date(Date.now() + 2 * 3_600_000);
    expect(await sweepStaleAttachments(storage, new Date())).toBe(0);
    expect(await sweepStaleAttachments(storage, later)).toBe(1);
    expect(await storage.stat("storage/inquiries/.tmp-2026-01-01-crashed.png")).toBeNull();
    // The filed one has its row: never swept.
    expect((await call(`/mypage/qna/${id}/attachment`, { headers: { cookie: s.jar.header } })).status).toBe(200);
  });

  it("cuts font preview subsets from the original in the store", async () => {
    const font = await db
      .selectFrom("contents")
      .select("code")
      .where("contents_type", "=", "font")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    const res = await call(`/api/v1/font/subset?contents_code=${font.code}&text=${encodeURIComponent("Storage 저장")}`, {
      headers: { language: "en" },
    });
    expect(res.status).toBe(200);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 4)
        .toString("latin1"),
    ).toBe("wOF2");
    // Gone from the store (though still in the local folder the pool was written to): no preview.
    const other = await db
      .selectFrom("contents")
      .select(["code", "file_path"])
      .where("contents_type", "=", "font")
      .where("status", "=", "active")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    await storage.delete(`storage/${other.file_path}`);
    expect(fs.existsSync(path.join(dataDir, "storage", other.file_path as string))).toBe(true);
    expect((await call(`/api/v1/font/subset?contents_code=${other.code}&text=gone`, { headers: { language: "en" } })).status).toBe(404);
  });
});
