import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type ByteRange, checkKey, isMissing, type ListedFile, type Storage, type StoredFile } from "./storage";

/**
 * The local disk: key `a/b/c` is the file `<root>/a/b/c` (root is DATA_DIR, so `storage/...` and `media/...` are
 * the folders the store has always used). Bytes are written in place; a stream goes to a `.part-*` name first and
 * is renamed when complete, so a reader never sees half a file.
 */
export function createLocalStorage(root: string): Storage & { root: string; fileOf(key: string): string } {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    const file = path.resolve(base, checkKey(key));
    if (!file.startsWith(base + path.sep)) throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
    return file;
  };
  const statOf = async (key: string) => {
    try {
      const s = await fs.stat(fileOf(key));
      return s.isFile() ? s : null;
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
      throw error;
    }
  };
  return {
    kind: "local",
    root: base,
    fileOf,
    async put(key, body) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      if (body instanceof Uint8Array) {
        await fs.writeFile(file, body);
        return;
      }
      const part = path.join(path.dirname(file), `.part-${process.pid}-${Date.now()}-${path.basename(file)}`);
      try {
        await pipeline(body, createWriteStream(part));
        await fs.rename(part, file);
      } catch (error) {
        await fs.rm(part, { force: true });
        throw error;
      }
    },
    async get(key, range?: ByteRange) {
      if (!(await statOf(key))) return null;
      return createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {});
    },
    async read(key) {
      try {
        return await fs.readFile(fileOf(key));
      } catch (error) {
        if (isMissing(error) || ["EISDIR", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "")) return null;
        throw error;
      }
    },
    async stat(key): Promise<StoredFile | null> {
      const s = await statOf(key);
      if (!s) return null;
      return { size: s.size, etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`, modified: s.mtime };
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
    async move(from, to) {
      const target = fileOf(to);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(fileOf(from), target);
    },
    async list(prefix) {
      if (!prefix.endsWith("/")) throw new Error("a prefix ends with /");
      const dir = fileOf(prefix.slice(0, -1));
      const out: ListedFile[] = [];
      const walk = async (folder: string, keyPrefix: string) => {
        let entries: import("node:fs").Dirent[];
        try {
          entries = await fs.readdir(folder, { withFileTypes: true });
        } catch (error) {
          if (isMissing(error) || (error as NodeJS.ErrnoException).code === "ENOTDIR") return;
          throw error;
        }
        for (const entry of entries) {
          const full = path.join(folder, entry.name);
          if (entry.isDirectory()) await walk(full, `${keyPrefix}${entry.name}/`);
          else if (entry.isFile()) {
            const s = await fs.stat(full).catch(() => null);
            if (s) out.push({ key: `${keyPrefix}${entry.name}`, size: s.size, modified: s.mtime });
          }
        }
      };
      await walk(dir, prefix);
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async presignedGet() {
      return null;
    },
  };
}

/** Reads a whole stream into memory. */
export async function streamToBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
