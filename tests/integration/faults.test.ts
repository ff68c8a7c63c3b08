/**
 * Faults answer clearly (issue 25, point 6): a full disk under an attachment or an upload answers 503 with
 * Retry-After and "Please try again in a few minutes" (pages, the console and the API), not a generic 500, and
 * leaves neither file nor row; every 503 of the API carries Retry-After. The full disk is the kernel's own: the
 * storage writes to /dev/full, which refuses every write with ENOSPC. (PostgreSQL's lock and statement timeouts are
 * in database-unavailable.test.ts; the killed worker in cluster.test.ts.)
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DB } from "../../app/db/db.server";
import { eventImagePng } from "../../app/db/seed/event-images";
import { DEMO } from "../../app/db/seed/index.server";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { isStorageFull, type Storage } from "../../app/integrations/storage/storage";
import { unavailableCode } from "../../app/utils/unavailable.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { freePort } from "../support/net";
import { signInOperator } from "../support/operator";

type Call = Awaited<ReturnType<typeof createTestApp>>;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(4096).fill(7)]);
const inquiry = { category: "payment", title: "Receipt", description: "Where is my receipt?", email: "full-disk@example.com" };

describe.skipIf(!fs.existsSync("/dev/full"))(`a full disk and the API's 503s on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let dataDir: string;
  /** The app with a storage whose disk is full: every write fails with the kernel's ENOSPC. */
  let full: Call;
  let call: Call;
  let errors: { mock: { calls: unknown[][] }; mockRestore(): void };
  const files = () =>
    fs.existsSync(path.join(dataDir, "storage")) ? fs.readdirSync(path.join(dataDir, "storage"), { recursive: true }) : [];
  const tickets = async () =>
    Number(
      (
        await db
          .selectFrom("support_tickets")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** The log lines written for a full storage since the spy was cleared. */
  const fullLines = () =>
    errors.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, unknown>).filter((l) => l.code === "STORAGE_FULL");

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop, dataDir } = t);
    const local = createLocalStorage(dataDir);
    const fullDisk: Storage = {
      ...local,
      async put(_key, body) {
        // The bytes go to /dev/full, as they would to a disk with no room left.
        await fsp.writeFile("/dev/full", body);
      },
    };
    full = await createTestApp(db, { dataDir, storage: fullDisk });
    call = await createTestApp(db, { dataDir });
  });
  afterAll(() => drop());

  it("knows a full disk, a spent quota and a full object store when it sees one", async () => {
    const enospc = await fsp.writeFile("/dev/full", "x").catch((e: unknown) => e);
    expect(isStorageFull(enospc)).toBe(true);
    expect(isStorageFull(Object.assign(new Error("quota"), { code: "EDQUOT" }))).toBe(true);
    expect(isStorageFull(new Error("wrapped", { cause: enospc }))).toBe(true);
    expect(isStorageFull({ name: "XMinioStorageFull", $metadata: { httpStatusCode: 507 } })).toBe(true);
    expect(isStorageFull(Object.assign(new Error("gone"), { code: "ENOENT" }))).toBe(false);
    // What the doors answer 503: a full storage, and the database's faults, PostgreSQL's lock and statement timeouts
    // among them.
    expect(unavailableCode(enospc)).toBe("STORAGE_FULL");
    expect(unavailableCode({ code: "55P03" })).toBe("DATABASE_BUSY");
    expect(unavailableCode({ code: "57014" })).toBe("DATABASE_BUSY");
    expect(unavailableCode({ code: "SQLITE_FULL" })).toBe("DATABASE_FULL");
    expect(unavailableCode(new Error("a bug"))).toBeNull();
  });

  it("answers an inquiry page's attachment on a full disk 503 with Retry-After, the try-again page, no file and no row", async () => {
    errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const before = await tickets();
      // The seeded data folder is shared with other files, whose inquiries leave their attachments: none is added.
      const attachments = () => files().filter((f) => String(f).includes("inquiries/"));
      const attachedBefore = attachments();
      const form = new FormData();
      for (const [k, v] of Object.entries(inquiry)) form.append(k, v);
      form.append("attachment", new File([PNG], "photo.png", { type: "image/png" }));
      const res = await full("/support/question", {
        method: "POST",
        headers: { "accept-language": "en" },
        body: form,
        ip: "198.51.100.31",
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("60");
      const html = await res.text();
      expect(html).toContain("Please try again in a few minutes");
      expect(html).not.toMatch(/ENOSPC|at .*\.js:\d+/);
      expect(await tickets()).toBe(before);
      expect(attachments()).toEqual(attachedBefore);
      // One log line, an error an operator acts on, with no stack.
      const lines = fullLines();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: "error", msg: expect.stringMatching(/storage is full/), path: "/support/question" });
      expect(String(lines[0].error)).toMatch(/ENOSPC/);
    } finally {
      errors.mockRestore();
    }
  });

  it("answers the API's inquiry with an attachment on a full disk 503, STORAGE_FULL and Retry-After", async () => {
    errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const form = new FormData();
      for (const [k, v] of Object.entries(inquiry)) form.append(k, v);
      form.append("file", new File([PNG], "photo.png", { type: "image/png" }));
      const res = await full("/api/v1/support/qna", { method: "POST", headers: { language: "en" }, body: form, ip: "198.51.100.32" });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("60");
      expect(await res.json()).toEqual({
        result: { code: 503, message: "Please try again in a few minutes" },
        data: { state: "ERROR", error: "STORAGE_FULL" },
      });
      expect(fullLines()).toHaveLength(1);
    } finally {
      errors.mockRestore();
    }
  });

  it("answers a console upload on a full disk 503 with Retry-After, and creates no item", async () => {
    const cookie = `${await signInOperator(full, "catalog", "198.51.100.33")}; lng=en`;
    errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const body = new FormData();
      const fields: Record<string, string> = {
        type: "icon",
        titleKo: "가득 찬 디스크",
        titleEn: "Full disk badge",
        descriptionKo: "업로드 테스트",
        descriptionEn: "Uploaded to a full disk",
        tagsKo: "테스트",
        tagsEn: "test",
        priceType: "paid",
        priceKrw: "5000",
        priceUsd: "399",
      };
      for (const [k, v] of Object.entries(fields)) body.append(k, v);
      body.append("file", new File([eventImagePng(2) as BlobPart], "badge.png", { type: "application/octet-stream" }));
      const res = await full("/admin/catalog/new", {
        method: "POST",
        headers: { "accept-language": "en", cookie },
        body,
        ip: "198.51.100.33",
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("60");
      expect(await db.selectFrom("contents").select("id").where("title_en", "=", "Full disk badge").executeTakeFirst()).toBeUndefined();
      expect(fullLines()).toHaveLength(1);
    } finally {
      errors.mockRestore();
    }
  });

  it("gives every 503 of the API a Retry-After: a database that cannot write, an outside service that is down", async () => {
    // The database refuses every write as a full SQLite would (recognised on either engine).
    const noRoom = db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (args.result.numAffectedRows === undefined) return args.result;
        throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      },
    });
    const fullDb = await createTestApp(noRoom, { dataDir });
    const item = await db
      .selectFrom("contents")
      .select("code")
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await fullDb("/api/v1/carts", {
        method: "POST",
        headers: { "content-type": "application/json", ngt: "faults-1" },
        body: JSON.stringify({ contents_list: [{ item_code: item.code }] }),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("60");
      expect((await res.json()).data.error).toBe("DATABASE_FULL");
    } finally {
      errors.mockRestore();
    }

    // The company account service cannot be reached: the domain's own 503 (ACCOUNTS_UNAVAILABLE).
    const accountsDown = await createTestApp(db, { dataDir, env: { COMPANY_ACCOUNTS_URL: `http://127.0.0.1:${await freePort()}` } });
    const handOff = await accountsDown("/api/v1/auth/request_blowfish", {
      method: "POST",
      headers: { license_id: DEMO.licenses.individual.serial, hw_info: DEMO.licenses.individual.hw_info, language: "en" },
      ip: "198.51.100.34",
    });
    expect(handOff.status).toBe(503);
    expect((await handOff.json()).data.error).toBe("ACCOUNTS_UNAVAILABLE");
    expect(handOff.headers.get("retry-after")).toBe("60");

    // The same requests on a healthy store are no 503 at all.
    expect(
      (
        await call("/api/v1/carts", {
          method: "POST",
          headers: { "content-type": "application/json", ngt: "faults-2" },
          body: JSON.stringify({ contents_list: [{ item_code: item.code }] }),
        })
      ).status,
    ).toBe(200);
  });
});
