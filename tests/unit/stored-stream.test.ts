import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { serveStored } from "../../app/integrations/storage/serve.server";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "stored-stream-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("a stored file's response when the client goes away", () => {
  it("cancelling the body mid-file (as the server does when the socket closes) leaves no unhandled stream error", async () => {
    const storage = createLocalStorage(root);
    await storage.put("media/clips/big.mp4", new Uint8Array(4 * 1024 * 1024).fill(7));
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", onUncaught);
    try {
      for (const range of [undefined, "bytes=1000-"]) {
        const headers = new Headers(range ? { range } : {});
        const response = await serveStored(storage, "media/clips/big.mp4", { method: "GET", headers }, { "Content-Type": "video/mp4" });
        if (!response?.body) throw new Error("no body");
        expect(response.status).toBe(range ? 206 : 200);
        const reader = response.body.getReader();
        expect((await reader.read()).done).toBe(false);
        // What `pipeline(Readable.fromWeb(body), res)` does when the response socket closes early.
        await reader.cancel(Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" }));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      process.off("uncaughtException", onUncaught);
    }
    expect(uncaught).toEqual([]);
  });
});
