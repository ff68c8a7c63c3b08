import fs from "node:fs";
import path from "node:path";
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { contentTypeOf, resolveFileLink } from "../market/downloads/downloads.server";

/**
 * A signed, short-lived download link: the file from the private storage, with range requests (resumable
 * downloads) and its content type. Nothing but a live link issued after the download checks opens a file.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const link = await resolveFileLink(context.db, params.token ?? "");
  if (!link) return new Response("This download link has expired. Start the download again.", { status: 410 });
  const storage = path.resolve(context.env.DATA_DIR, "storage");
  const file = path.resolve(storage, link.file);
  if (!file.startsWith(storage + path.sep)) return new Response("Not found", { status: 404 });
  let size: number;
  try {
    size = (await fs.promises.stat(file)).size;
  } catch {
    return new Response("Not found", { status: 404 });
  }
  const headers = new Headers({
    "Content-Type": contentTypeOf(file),
    "Accept-Ranges": "bytes",
    "Content-Disposition": `attachment; filename="${link.filename.replace(/[^\w.-]/g, "_")}"`,
    // no-transform: the compression middleware must not touch ranges or lengths.
    "Cache-Control": "private, no-store, no-transform",
  });
  const range = request.headers.get("range");
  let start = 0;
  let end = size - 1;
  let status = 200;
  if (range) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (m && (m[1] || m[2])) {
      if (m[1]) {
        start = Number(m[1]);
        end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
      } else {
        start = Math.max(0, size - Number(m[2]));
      }
    }
    if (!m || start > end || start >= size) {
      return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
    }
    status = 206;
    headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  }
  headers.set("Content-Length", String(end - start + 1));
  if (request.method === "HEAD") return new Response(null, { status, headers });
  return new Response(createReadableStreamFromReadable(fs.createReadStream(file, { start, end })), { status, headers });
}
