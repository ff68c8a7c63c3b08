import type { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isSafeKey, type Storage } from "./storage";

/**
 * A stored file as an HTTP answer, streamed from the storage (local disk or object store alike): one byte range
 * (206 with Content-Range; 416 for a range past the end), HEAD, and the conditional GET of a validator
 * (If-None-Match: 304). `headers` are added to every answer (type, disposition, caching). Null when the key is
 * missing, so the caller answers its own 404.
 */
export async function serveStored(
  storage: Storage,
  key: string,
  request: { method: string; headers: Headers },
  headers: Record<string, string>,
  options: { conditional?: boolean } = {},
): Promise<Response | null> {
  const file = await storage.stat(key);
  if (!file) return null;
  const out = new Headers(headers);
  out.set("Accept-Ranges", "bytes");
  if (options.conditional) {
    out.set("ETag", file.etag);
    out.set("Last-Modified", file.modified.toUTCString());
    const match = request.headers.get("if-none-match");
    if (match?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === file.etag))
      return new Response(null, { status: 304, headers: out });
  }
  const size = file.size;
  const range = parseRange(request.headers.get("range"), size);
  if (range === "unsatisfiable") return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
  const status = range ? 206 : 200;
  if (range) {
    out.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
    // A byte range of the stored bytes: the compression middleware must leave it as it is.
    const cache = out.get("Cache-Control");
    if (!cache?.includes("no-transform")) out.set("Cache-Control", cache ? `${cache}, no-transform` : "no-transform");
  }
  out.set("Content-Length", String(range ? range.end - range.start + 1 : size));
  if (request.method === "HEAD") return new Response(null, { status, headers: out });
  // An empty file has no byte to read (and a range over it is unsatisfiable above).
  if (size === 0) return new Response("", { status, headers: out });
  const body = await storage.get(key, range ?? undefined);
  if (!body) return null;
  return new Response(webStream(body), { status, headers: out });
}

/**
 * One `bytes=` range against a size: null for none, "unsatisfiable" for one that starts past the end or a form not
 * served (several ranges), as the download route has always answered.
 */
export function parseRange(header: string | null, size: number): { start: number; end: number } | null | "unsatisfiable" {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return "unsatisfiable";
  let start: number;
  let end: number;
  if (m[1]) {
    start = Number(m[1]);
    end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  } else {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  }
  if (start > end || start >= size) return "unsatisfiable";
  return { start, end };
}

const MEDIA_TYPES: Record<string, string> = {
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  json: "application/json",
};

/**
 * The policy an SVG from /media is served with, in place of the pages' own: no script (sandbox, no script-src), no
 * fetch of anything (default-src 'none'), inline styles only. The upload was already read and rewritten from an
 * allow-list (app/market/catalog/svg-sanitize.server.ts); this holds for an SVG opened on its own, whatever it holds.
 */
export const MEDIA_SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * /media/<path>: a public preview from the storage's `media/` folder, cached for a day like the static folder it
 * replaces (validators, 304, ranges for the players). Null for a path that is not a stored preview (404): a bad
 * or hidden name (the `.complete-*` markers, `.tmp-*`), or a missing key.
 */
export async function serveMedia(
  storage: Storage,
  urlPath: string,
  request: { method: string; headers: Headers },
): Promise<Response | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  let rest: string;
  try {
    rest = decodeURIComponent(urlPath.replace(/^\/+/, ""));
  } catch {
    return null;
  }
  if (!isSafeKey(rest) || rest.split("/").some((part) => part.startsWith("."))) return null;
  const ext = rest.slice(rest.lastIndexOf(".") + 1).toLowerCase();
  return serveStored(
    storage,
    `media/${rest}`,
    request,
    {
      "Content-Type": MEDIA_TYPES[ext] ?? "application/octet-stream",
      "Cache-Control": "public, max-age=86400",
      ...(ext === "svg" ? { "Content-Security-Policy": MEDIA_SVG_CSP } : {}),
    },
    { conditional: true },
  );
}

/**
 * A stored file's stream as a response body. When the client goes away, Remix's pump destroys the source with the
 * cancel reason (ERR_STREAM_PREMATURE_CLOSE) after taking its own error listener off, so the file stream's late
 * 'error' would have no listener and end the process: this one keeps it (errors while reading still reach the
 * pump's listener and fail the response).
 */
export function webStream(body: Readable): ReadableStream<Uint8Array> {
  body.on("error", () => {});
  return createReadableStreamFromReadable(body);
}
