/**
 * Two store processes on two ports sharing one PostgreSQL database and one S3-compatible store (s3rver), each with
 * its own, empty DATA_DIR, as two servers behind a load balancer would run: what one writes the other sees. A cart
 * filled on A is seen on B; an order placed on A is completed by the gateway's webhook delivered to B; mail queued
 * once is sent once by the two servers' mail workers; an inquiry's attachment uploaded on A is served by B; B
 * serves /media previews from the store (its own folder has none).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { publishMediaPool } from "../../app/db/seed/media.server";
import { createS3Storage } from "../../app/integrations/storage/s3.server";
import type { Storage } from "../../app/integrations/storage/storage";
import { queueMail } from "../../app/market/mail/queue.server";
import { parseEnv } from "../../app/utils/env.server";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { freePort } from "../support/net";
import { startS3 } from "../support/s3";
import { newShopper } from "../support/shopper";

const SECRET = "test-secret-test-secret";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A tiny PNG (the attachment check reads its first bytes). */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 120 }, (_, i) => i)]);

interface Server {
  name: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  log: string;
  /** The request log's lines (one JSON object per request). */
  requests(): { method?: string; path?: string; status?: number }[];
}

// SQLite is one file on one machine: sharing it between two servers is not a configuration the store supports.
describe.skipIf(ENGINE !== "postgres")("two servers sharing PostgreSQL and an S3-compatible store (PostgreSQL only)", () => {
  let db: DB;
  let drop: () => Promise<void>;
  let url: string;
  let s3: Awaited<ReturnType<typeof startS3>>;
  let storage: Storage;
  let a: Server;
  let b: Server;
  const at = (s: Server, p: string) => `http://127.0.0.1:${s.port}${p}`;

  async function start(name: string, port: number, publicPort: number): Promise<Server> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `multi-${name}-`));
    const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        // The address a load balancer would publish: here B's, so the gateway's webhooks go to B.
        PUBLIC_URL: `http://127.0.0.1:${publicPort}`,
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        STORAGE_URL: s3.url,
        ...s3.env,
        AUTO_SEED: "false",
        SESSION_SECRET: SECRET,
        LOG_REQUESTS: "true",
        MAIL_TRANSPORT: "outbox",
        MAIL_POLL_MS: "100",
        VBANK_EXPIRY_INTERVAL_S: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const server: Server = {
      name,
      port,
      dataDir,
      child,
      log: "",
      requests: () =>
        server.log
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as { method?: string; path?: string; status?: number }),
    };
    child.stdout?.on("data", (d: Buffer) => {
      server.log += d;
    });
    child.stderr?.on("data", (d: Buffer) => {
      server.log += d;
    });
    for (let i = 0; i < 400; i++) {
      if (child.exitCode !== null) throw new Error(`server ${name} exited: ${server.log}`);
      try {
        if ((await fetch(at(server, "/healthz"))).ok) return server;
      } catch {
        // not up yet
      }
      await sleep(100);
    }
    throw new Error(`server ${name} did not start: ${server.log}`);
  }

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    url = t.url;
    s3 = await startS3();
    storage = createS3Storage(parseEnv({ STORAGE_URL: s3.url }).STORAGE_URL as never);
    // The demo catalog's files, in the store as the first server to start there would put them.
    await publishMediaPool(t.dataDir, storage);
    const [portA, portB] = [await freePort(), await freePort()];
    [a, b] = await Promise.all([start("A", portA, portB), start("B", portB, portB)]);
  }, 180_000);
  afterAll(async () => {
    for (const s of [a, b]) {
      if (!s) continue;
      s.child.kill("SIGTERM");
      fs.rmSync(s.dataDir, { recursive: true, force: true });
    }
    await sleep(300);
    await s3?.close();
    await drop?.();
  });

  const api = async (s: Server, method: string, p: string, token: string, body?: unknown) => {
    const res = await fetch(at(s, `/api/v1/${p}`), {
      method,
      headers: {
        authorizationToken: token,
        language: "en",
        ...(body && !(body instanceof FormData) ? { "content-type": "application/json" } : {}),
      },
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as { result: { message: string }; data: Record<string, unknown> } };
  };

  it("shows on B the cart filled on A", async () => {
    const s = await newShopper(db);
    const items = await db
      .selectFrom("contents")
      .select("code")
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .orderBy("id")
      .limit(3)
      .execute();
    const added = await api(a, "POST", "carts", s.token, { contents_list: items.map((i) => ({ item_code: i.code })) });
    expect(added.status, added.json.result.message).toBe(200);
    const count = await api(b, "GET", "carts/count", s.token);
    expect(count.json.data.cart_count).toBe(3);
    const listed = await api(b, "GET", "carts", s.token);
    expect((listed.json.data.list as { item_code?: string; code?: string }[]).length).toBe(3);
  });

  it("completes an order placed on A when the gateway's webhook reaches B", async () => {
    const s = await newShopper(db);
    const item = await db
      .selectFrom("contents")
      .select("id")
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const placed = await api(a, "POST", "payments", s.token, {
      items: [{ kind: "content", id: item.id }],
      license_id: s.licenseId,
      method: "card",
      agree_terms: true,
      agree_paid: true,
      idempotency_key: `multi-server-${s.userId}`,
    });
    expect(placed.status, placed.json.result.message).toBe(200);
    const orderNo = placed.json.data.order_no as string;
    const hosted = new URL((placed.json.data.checkout as { url: string }).url, "http://x").pathname;
    // The payer approves at the sandbox's hosted page, served by A.
    const approved = await fetch(at(a, hosted), {
      method: "POST",
      redirect: "manual",
      headers: { cookie: s.jar.header, "content-type": "application/x-www-form-urlencoded", origin: at(a, "") },
      body: new URLSearchParams({ action: "approve" }),
    });
    expect(approved.status).toBe(302);
    let status = "";
    for (let i = 0; i < 100 && status !== "complete"; i++) {
      status = (await db.selectFrom("orders").select("status").where("order_no", "=", orderNo).executeTakeFirstOrThrow()).status;
      if (status !== "complete") await sleep(100);
    }
    expect(status).toBe("complete");
    const webhook = (r: { method?: string; path?: string }) => r.method === "POST" && (r.path ?? "").startsWith("/webhooks/payments/");
    // The request's log line is written when its answer has gone out, just after the commit.
    for (let i = 0; i < 50 && b.requests().filter(webhook).length === 0; i++) await sleep(100);
    expect(b.requests().filter(webhook).length).toBeGreaterThanOrEqual(1);
    expect(a.requests().filter(webhook)).toHaveLength(0);
    // The order placed on A is on B's My page, paid.
    const orders = await api(b, "GET", "users/orders", s.token);
    expect(JSON.stringify(orders.json.data)).toContain(orderNo);
  });

  it("sends mail queued once exactly once, whichever server's worker takes it", async () => {
    const tag = `multi-${Date.now()}`;
    for (let i = 0; i < 30; i++)
      await queueMail(db, {
        kind: "test",
        language: "en",
        to: `reader-${i}@example.com`,
        subject: `${tag} #${i}`,
        text: `Message ${i}`,
        html: `<p>Message ${i}</p>`,
        headers: {},
      });
    for (let i = 0; i < 200; i++) {
      const waiting = await db
        .selectFrom("mail_outbox")
        .select("id")
        .where("subject", "like", `${tag}%`)
        .where("status", "!=", "sent")
        .execute();
      if (waiting.length === 0) break;
      await sleep(100);
    }
    const written = [a, b].flatMap((s) => {
      const dir = path.join(s.dataDir, "outbox");
      return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), "utf8")) : [];
    });
    const ours = written.map((m) => /Subject: (multi-\d+ #\d+)/.exec(m)?.[1]).filter((x): x is string => Boolean(x?.startsWith(tag)));
    expect(ours.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `${tag} #${i}`).sort());
  });

  it("serves on B an inquiry attachment uploaded on A, from the store, to its owner only", async () => {
    const s = await newShopper(db);
    const form = new FormData();
    form.append("category", "download");
    form.append("title", "Two servers");
    form.append("description", "Filed on A.");
    form.append("email", s.email);
    form.append("attachment", new File([PNG as Uint8Array<ArrayBuffer>], "shot.png"));
    const filed = await api(a, "POST", "support/qna", s.token, form);
    expect(filed.status, filed.json.result.message).toBe(200);
    const id = filed.json.data.id as number;
    // Nothing of it on A's disk: it went to the object store.
    expect(fs.existsSync(path.join(a.dataDir, "storage"))).toBe(false);
    const got = await fetch(at(b, `/mypage/qna/${id}/attachment`), { headers: { authorizationToken: s.token } });
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PNG);
    const other = await newShopper(db);
    expect((await fetch(at(b, `/mypage/qna/${id}/attachment`), { headers: { authorizationToken: other.token } })).status).toBe(404);
  });

  it("serves /media previews on B from the store, with ranges", async () => {
    const original = (await storage.read("media/icons/icon-0.svg")) as Buffer;
    const res = await fetch(at(b, "/media/icons/icon-0.svg"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(Buffer.from(await res.arrayBuffer()).equals(original)).toBe(true);
    // A range of a compressible preview (JSON peaks) of some size: the stored bytes, never compressed, whatever the
    // client accepts (Content-Range counts stored bytes).
    const peaks = Buffer.from(JSON.stringify({ peaks: Array.from({ length: 4000 }, (_, i) => (i % 97) / 97) }));
    await storage.put("media/uploads/MULTI01/peaks.json", peaks);
    const part = await fetch(at(b, "/media/uploads/MULTI01/peaks.json"), {
      headers: { range: "bytes=100-8099", "accept-encoding": "gzip, br" },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-encoding")).toBeNull();
    expect(part.headers.get("content-range")).toBe(`bytes 100-8099/${peaks.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(peaks.subarray(100, 8100))).toBe(true);
    expect((await fetch(at(b, "/media/icons/missing.svg"))).status).toBe(404);
    expect(fs.existsSync(path.join(b.dataDir, "media"))).toBe(false);
  });
});
