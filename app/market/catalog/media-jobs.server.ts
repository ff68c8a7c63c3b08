import { execFile, spawn } from "node:child_process";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { DB } from "../../db/db.server";
import type { ContentsType, MediaJobState } from "../../db/schema";
import { isSafeKey, type Storage } from "../../integrations/storage/storage";
import { runExclusive } from "../jobs.server";
import { type Actor, recordAudit } from "../operators/audit.server";
import { FONT_SAMPLE } from "./fonts.server";
import { subsetSfnt } from "./harfbuzz.server";
import { pngSize, svgSize } from "./media-files.server";
import { peaksOf, waveformSvg } from "./waveform";

export { PEAK_COUNT, peaksOf } from "./waveform";

/**
 * The previews of an uploaded item, made after the response: queued with the item (media_jobs, in its transaction),
 * run by one process at a time across servers (the "media-jobs" lease, app/market/jobs.server.ts), each job claimed
 * by a conditional update, its progress (0-100) written as it goes for the console's item page.
 *
 * - video: a 10-second 640-pixel H.264 clip without sound and a poster frame (ffmpeg), its length and size;
 * - audio: an MP3 preview (ffmpeg), the waveform's peaks (the decoded samples' largest magnitude per slice, as
 *   JSON beside the preview), the waveform drawn from them (waveform.svg, the item's poster) and its length;
 * - icon and a package's cover: the picture itself (checked at upload) as preview and poster, its size;
 * - font: the subset the storefront's preview cuts at request time (app/market/catalog/fonts.server.ts) is cut
 *   once from the upload, so a font harfbuzz cannot read fails here and not on the item page.
 * The tools work on local files: the original is copied from the storage to a temporary folder, the previews are
 * made there and put in the storage at media/uploads/<code>/ (public, served at /media); the original stays private.
 */

export const MEDIA_JOB_LEASE = "media-jobs";
/** A job is given up after this many starts (a process that died mid-job leaves it running; the next run retries it). */
export const MEDIA_JOB_MAX_ATTEMPTS = 3;
const TOOL_TIMEOUT_MS = 5 * 60_000;
const LEASE_MS = 15 * 60_000;
export const CLIP_SECONDS = 10;

export interface MediaJob {
  id: number;
  contentId: number;
  kind: string;
  state: MediaJobState;
  progress: number;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** Queues an item's previews, in the transaction that creates the item. */
export async function queueMediaJob(trx: DB, contentId: number, type: ContentsType, sourcePath: string, now = new Date()): Promise<void> {
  await trx
    .insertInto("media_jobs")
    .values({
      content_id: contentId,
      kind: type,
      source_path: sourcePath,
      state: "queued",
      error: null,
      created_at: now.toISOString(),
      started_at: null,
      finished_at: null,
    })
    .execute();
}

/** The item's latest media job, for its console page. */
export async function latestMediaJob(db: DB, contentId: number): Promise<MediaJob | null> {
  const r = await db
    .selectFrom("media_jobs")
    .selectAll()
    .where("content_id", "=", contentId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!r) return null;
  return {
    id: r.id,
    contentId: r.content_id,
    kind: r.kind,
    state: r.state,
    progress: Number(r.progress),
    error: r.error,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

/**
 * Puts an item's failed job back in the queue (the console's "try again"), with its audit line (content.media_retry);
 * false when the item's latest job had not failed.
 */
export async function retryMediaJob(db: DB, actor: Actor, contentId: number, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const job = await latestMediaJob(trx, contentId);
    if (job?.state !== "failed") return false;
    const r = await trx
      .updateTable("media_jobs")
      .set({ state: "queued", progress: 0, attempts: 0, error: null, started_at: null, finished_at: null })
      .where("id", "=", job.id)
      .where("state", "=", "failed")
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await recordAudit(
      trx,
      actor,
      {
        action: "content.media_retry",
        targetType: "content",
        targetId: contentId,
        before: { state: "failed", error: job.error },
        after: { state: "queued" },
      },
      now,
    );
    return true;
  });
}

/** An audio item's waveform peaks (0 to 1), written by its media job; null when it has none. */
export async function mediaPeaks(storage: Storage, code: string): Promise<number[] | null> {
  if (!/^[A-Z0-9]+$/.test(code)) return null;
  try {
    const bytes = await storage.read(`media/uploads/${code}/peaks.json`);
    if (!bytes) return null;
    const data = JSON.parse(bytes.toString("utf8")) as { peaks?: unknown };
    return Array.isArray(data.peaks) ? data.peaks.filter((p): p is number => typeof p === "number") : null;
  } catch {
    return null;
  }
}

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { timeout: TOOL_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) =>
      error
        ? reject(
            new Error(
              `${cmd}: ${String(stderr || error.message)
                .trim()
                .split("\n")
                .slice(-2)
                .join(" ")}`,
            ),
          )
        : resolve(stdout),
    ),
  );
}

/** ffmpeg with -progress on stdout: calls `onSeconds` with the output's time as it advances. */
function ffmpeg(args: string[], onSeconds?: (s: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-y", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let buffered = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), TOOL_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const m = /^out_time_(?:us|ms)=(\d+)/.exec(line);
        if (m) onSeconds?.(Number(m[1]) / 1e6);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      code === 0 ? resolve() : reject(new Error(`ffmpeg: ${stderr.trim().split("\n").slice(-2).join(" ") || `exit ${code}`}`));
    });
  });
}

interface Probe {
  seconds: number;
  video: { width: number; height: number } | null;
  audio: boolean;
}

async function probe(file: string): Promise<Probe> {
  const out = JSON.parse(
    await run("ffprobe", ["-v", "error", "-show_entries", "format=duration:stream=codec_type,width,height", "-of", "json", file]),
  ) as { format?: { duration?: string }; streams?: { codec_type?: string; width?: number; height?: number }[] };
  const video = out.streams?.find((s) => s.codec_type === "video" && s.width && s.height);
  return {
    seconds: Number(out.format?.duration ?? 0) || 0,
    video: video ? { width: Number(video.width), height: Number(video.height) } : null,
    audio: Boolean(out.streams?.some((s) => s.codec_type === "audio")),
  };
}

/** Decodes to 8 kHz mono 16-bit samples (ffmpeg to a pipe), reporting the share decoded. */
function decodeSamples(file: string, seconds: number, onShare: (share: number) => void): Promise<Int16Array> {
  return new Promise((resolve, reject) => {
    const child = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", file, "-ac", "1", "-ar", "8000", "-f", "s16le", "pipe:1"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = "";
    const expected = Math.max(1, seconds * 8000 * 2);
    const timer = setTimeout(() => child.kill("SIGKILL"), TOOL_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      onShare(Math.min(1, size / expected));
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`ffmpeg: ${stderr.trim() || `exit ${code}`}`));
      const all = Buffer.concat(chunks);
      const samples = new Int16Array(Math.floor(all.length / 2));
      for (let i = 0; i < samples.length; i++) samples[i] = all.readInt16LE(i * 2);
      resolve(samples);
    });
  });
}

type Progress = (percent: number) => Promise<void>;
type Made = Partial<{
  preview_path: string;
  poster_path: string;
  duration_ms: number;
  width: number;
  height: number;
  font_family: string;
}>;

async function makeVideo(source: string, out: string, url: string, progress: Progress): Promise<Made> {
  const info = await probe(source);
  if (!info.video) throw new Error("no video stream");
  await progress(10);
  const clipSeconds = Math.min(CLIP_SECONDS, info.seconds || CLIP_SECONDS);
  let last = 10;
  const clip = path.join(out, "preview.mp4");
  await ffmpeg(
    [
      "-i",
      source,
      "-t",
      String(CLIP_SECONDS),
      "-vf",
      "scale='min(640,iw)':-2,format=yuv420p",
      "-c:v",
      "libx264",
      "-preset",
      "veryfast",
    ].concat(["-crf", "30", "-an", "-movflags", "+faststart", `${clip}.part.mp4`]),
    (s) => {
      const now = 10 + Math.floor((Math.min(s, clipSeconds) / clipSeconds) * 70);
      if (now >= last + 5) {
        last = now;
        void progress(now);
      }
    },
  );
  await fs.rename(`${clip}.part.mp4`, clip);
  await progress(80);
  const poster = path.join(out, "poster.jpg");
  const at = info.seconds > 2 ? 1 : 0;
  await ffmpeg(["-ss", String(at), "-i", source, "-frames:v", "1", "-vf", "scale='min(640,iw)':-2", "-q:v", "4", `${poster}.part.jpg`]);
  await fs.rename(`${poster}.part.jpg`, poster);
  await progress(95);
  return {
    preview_path: `${url}/preview.mp4`,
    poster_path: `${url}/poster.jpg`,
    duration_ms: Math.round(info.seconds * 1000),
    width: info.video.width,
    height: info.video.height,
  };
}

async function makeAudio(source: string, out: string, url: string, progress: Progress): Promise<Made> {
  const info = await probe(source);
  if (!info.audio) throw new Error("no audio stream");
  await progress(5);
  let last = 5;
  const samples = await decodeSamples(source, info.seconds, (share) => {
    const now = 5 + Math.floor(share * 45);
    if (now >= last + 5) {
      last = now;
      void progress(now);
    }
  });
  if (samples.length === 0) throw new Error("no audio samples");
  const peaks = peaksOf(samples);
  await fs.writeFile(path.join(out, "peaks.json"), JSON.stringify({ version: 1, sampleRate: 8000, length: samples.length, peaks }));
  await fs.writeFile(path.join(out, "waveform.svg"), waveformSvg(peaks));
  await progress(55);
  const preview = path.join(out, "preview.mp3");
  const total = samples.length / 8000;
  last = 55;
  await ffmpeg(["-i", source, "-vn", "-ac", "2", "-codec:a", "libmp3lame", "-b:a", "128k", `${preview}.part.mp3`], (s) => {
    const now = 55 + Math.floor((Math.min(s, total) / Math.max(total, 0.001)) * 40);
    if (now >= last + 5) {
      last = now;
      void progress(now);
    }
  });
  await fs.rename(`${preview}.part.mp3`, preview);
  return { preview_path: `${url}/preview.mp3`, poster_path: `${url}/waveform.svg`, duration_ms: Math.round(total * 1000) };
}

async function makePicture(source: string, out: string, url: string): Promise<Made> {
  const bytes = new Uint8Array(await fs.readFile(source));
  const ext = path.extname(source).toLowerCase() === ".svg" ? "svg" : "png";
  const size = ext === "png" ? pngSize(bytes) : svgSize(bytes);
  await fs.writeFile(path.join(out, `picture.${ext}`), bytes);
  return {
    preview_path: `${url}/picture.${ext}`,
    poster_path: `${url}/picture.${ext}`,
    ...(size ? { width: size.width, height: size.height } : {}),
  };
}

async function checkFont(source: string, progress: Progress): Promise<Made> {
  const font = await fs.readFile(source);
  await progress(30);
  const glyphs = [...new Set([...FONT_SAMPLE.ko, ...FONT_SAMPLE.en, ..."0123456789 "])].sort().join("");
  const subset = await subsetSfnt(font, glyphs);
  if (subset.length === 0) throw new Error("the font gave an empty subset");
  return {};
}

async function setProgress(db: DB, id: number, progress: number) {
  await db
    .updateTable("media_jobs")
    .set({ progress: Math.max(0, Math.min(100, Math.round(progress))) })
    .where("id", "=", id)
    .where("state", "=", "running")
    .execute();
}

/** Runs one claimed job: makes the previews and writes them to the item, or records why it failed. */
async function runJob(db: DB, storage: Storage, job: { id: number; content_id: number; kind: string; source_path: string }) {
  const progress: Progress = (p) => setProgress(db, job.id, p).catch(() => {});
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "media-job-"));
  try {
    const item = await db.selectFrom("contents").select(["code"]).where("id", "=", job.content_id).executeTakeFirst();
    if (!item) throw new Error("the item is gone");
    const key = `storage/${job.source_path.replace(/\\/g, "/")}`;
    if (!isSafeKey(key)) throw new Error("source outside storage");
    const original = await storage.get(key);
    if (!original) throw new Error("the original is missing from storage");
    const source = path.join(work, `source${path.posix.extname(key).toLowerCase()}`);
    await pipeline(original, createWriteStream(source));
    const out = path.join(work, "out");
    await fs.mkdir(out);
    const url = `/media/uploads/${item.code}`;
    const made =
      job.kind === "video"
        ? await makeVideo(source, out, url, progress)
        : job.kind === "audio"
          ? await makeAudio(source, out, url, progress)
          : job.kind === "font"
            ? await checkFont(source, progress)
            : await makePicture(source, out, url);
    // The previews go up before the row names them.
    for (const name of await fs.readdir(out)) {
      if (name.includes(".part.")) continue;
      await storage.put(`media/uploads/${item.code}/${name}`, createReadStream(path.join(out, name)), { contentType: previewType(name) });
    }
    await db.transaction().execute(async (trx) => {
      if (Object.keys(made).length) await trx.updateTable("contents").set(made).where("id", "=", job.content_id).execute();
      await trx
        .updateTable("media_jobs")
        .set({ state: "done", progress: 100, error: null, finished_at: new Date().toISOString() })
        .where("id", "=", job.id)
        .execute();
    });
    return true;
  } catch (error) {
    await db
      .updateTable("media_jobs")
      .set({
        state: "failed",
        error: String(error instanceof Error ? error.message : error).slice(0, 500),
        finished_at: new Date().toISOString(),
      })
      .where("id", "=", job.id)
      .execute();
    return false;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

const PREVIEW_TYPES: Record<string, string> = {
  ".mp4": "video/mp4",
  ".mp3": "audio/mpeg",
  ".jpg": "image/jpeg",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};
const previewType = (name: string) => PREVIEW_TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream";

/**
 * Runs the queued jobs, oldest first. Call it holding the lease (scheduleMediaJobs does): a job still "running" then
 * belongs to a run that died, and is queued again (or failed after MEDIA_JOB_MAX_ATTEMPTS starts).
 */
export async function runMediaJobs(db: DB, storage: Storage, options: { limit?: number } = {}): Promise<{ done: number; failed: number }> {
  await db
    .updateTable("media_jobs")
    .set({ state: "failed", error: "interrupted too many times", finished_at: new Date().toISOString() })
    .where("state", "=", "running")
    .where("attempts", ">=", MEDIA_JOB_MAX_ATTEMPTS)
    .execute();
  await db.updateTable("media_jobs").set({ state: "queued", progress: 0 }).where("state", "=", "running").execute();
  let done = 0;
  let failed = 0;
  const jobs = await db
    .selectFrom("media_jobs")
    .select(["id", "content_id", "kind", "source_path", "attempts"])
    .where("state", "=", "queued")
    .orderBy("id")
    .limit(options.limit ?? 20)
    .execute();
  for (const job of jobs) {
    const claim = await db
      .updateTable("media_jobs")
      .set({ state: "running", progress: 0, attempts: Number(job.attempts) + 1, started_at: new Date().toISOString() })
      .where("id", "=", job.id)
      .where("state", "=", "queued")
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue;
    if (await runJob(db, storage, job)) done++;
    else failed++;
  }
  return { done, failed };
}

/** Whether any job waits (a read; the lease is taken only when there is work). */
async function hasWork(db: DB): Promise<boolean> {
  return Boolean(await db.selectFrom("media_jobs").select("id").where("state", "in", ["queued", "running"]).limit(1).executeTakeFirst());
}

/**
 * Runs the media jobs every `intervalMs` on this server, one process at a time across servers (the lease). Answers
 * a stop function.
 */
export function scheduleMediaJobs(
  db: DB,
  options: { storage: Storage; intervalMs: number; holder: string; log?: (line: Record<string, unknown>) => void },
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      if (await hasWork(db)) {
        const result = await runExclusive(db, MEDIA_JOB_LEASE, { holder: options.holder, leaseMs: LEASE_MS }, () =>
          runMediaJobs(db, options.storage),
        );
        if (result.ran && (result.result.done || result.result.failed))
          options.log?.({ level: "info", msg: "media jobs", ...result.result });
      }
    } catch (error) {
      options.log?.({ level: "warn", msg: "media jobs failed", error: String(error) });
    } finally {
      if (!stopped) {
        timer = setTimeout(tick, options.intervalMs);
        timer.unref();
      }
    }
  };
  timer = setTimeout(tick, Math.min(options.intervalMs, 500));
  timer.unref();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
