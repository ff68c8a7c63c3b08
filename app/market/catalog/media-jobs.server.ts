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
import { type FileProblem, isFileProblem, MEDIA_KINDS, MEDIA_MAX_BYTES, type MediaKind, mediaKind, svgProblem } from "./media-files.server";
import { fileSource, inspectMedia, type MediaFacts, namesOtherInputs } from "./media-inspect.server";
import { MEDIA_LIMITS } from "./media-limits";
import { type Made, makeAudio, makePicture, makeVideo, type Progress } from "./media-previews.server";
import { MediaRefusal, toolInput } from "./media-tools.server";

export { PEAK_COUNT, peaksOf } from "./waveform";

/**
 * The previews of an uploaded item, made after the response: queued with the item (media_jobs, in its transaction),
 * run by one process at a time across servers (the "media-jobs" lease, app/market/jobs.server.ts), each job claimed
 * by a conditional update, its progress (0-100) written as it goes for the console's item page.
 *
 * - video: a clip of its first 10 s (at most 640 pixels wide, 30 frames a second, 4 MB, H.264, no sound) and a
 *   poster frame (ffmpeg), its length and size;
 * - audio: an MP3 preview of its first minute (128 kbit/s, at most 1.5 MB), the waveform's peaks over that minute
 *   (the decoded samples' largest magnitude per slice, as JSON beside the preview), the waveform drawn from them
 *   (waveform.svg, the item's poster) and its whole length (the decoded samples counted as they stream past);
 * - icon and a package's cover: the picture itself (checked at upload) as preview and poster, its size;
 * - font: the subset the storefront's preview cuts at request time (app/market/catalog/fonts.server.ts) is cut
 *   once from the upload, so a font harfbuzz cannot read fails here and not on the item page.
 * The tools work on local files: the original is copied from the storage to a scratch folder (as `input`), checked
 * again as an upload is (checkStoredMedia: its kind by its bytes, its container read through, the caps of
 * app/market/catalog/media-limits.ts), decoded (media-previews.server.ts) by ffmpeg under the rules of media-tools.server.ts (forced input
 * format, one input, no network, time and memory limits), the previews made there and put in the storage at
 * media/uploads/<code>/ (public, served at /media); the original stays private. A refused file fails its job with
 * the problem's code as its error, which the console shows as the same message the upload form would.
 */

export const MEDIA_JOB_LEASE = "media-jobs";
/** A job is given up after this many starts (a process that died mid-job leaves it running; the next run retries it). */
export const MEDIA_JOB_MAX_ATTEMPTS = 3;
const LEASE_MS = 15 * 60_000;
export const CLIP_SECONDS = MEDIA_LIMITS.video.previewSeconds;

export interface MediaJob {
  id: number;
  contentId: number;
  kind: string;
  state: MediaJobState;
  progress: number;
  error: string | null;
  /** The refusal behind a failure, when the file was refused (its message: admin.catalog.problems.<problem>). */
  problem: FileProblem | null;
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
    problem: isFileProblem(r.error) ? r.error : null,
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

async function checkFont(source: string, progress: Progress): Promise<Made> {
  const font = await fs.readFile(source);
  await progress(30);
  const glyphs = [...new Set([...FONT_SAMPLE.ko, ...FONT_SAMPLE.en, ..."0123456789 "])].sort().join("");
  const subset = await subsetSfnt(font, glyphs);
  if (subset.length === 0) throw new Error("the font gave an empty subset");
  return {};
}

/**
 * The stored original checked again as the upload was (a file stored before these checks, or put in the storage by
 * other means, gets no pass): its kind from its bytes, one its item type takes, its container read through.
 */
async function checkStoredMedia(type: string, file: string): Promise<{ kind: MediaKind; facts: MediaFacts }> {
  if (!isContentType(type)) throw new Error(`unknown item type ${type}`);
  const source = await fileSource(file);
  try {
    if (source.size > MEDIA_MAX_BYTES) throw new MediaRefusal("fileTooLarge");
    const head = await source.read(0, 4096);
    const kind = mediaKind(head);
    if (!kind) throw new MediaRefusal(namesOtherInputs(head) ? "fileReference" : "fileType");
    if (!MEDIA_KINDS[type].includes(kind)) throw new MediaRefusal("fileType");
    if (kind === "svg") {
      const problem = svgProblem(new Uint8Array(await fs.readFile(file)));
      if (problem) throw new MediaRefusal(problem);
    }
    const inspected = await inspectMedia(kind, source);
    if (!inspected.ok) throw new MediaRefusal(inspected.problem);
    return { kind, facts: inspected.facts };
  } finally {
    await source.close();
  }
}

const isContentType = (v: string): v is ContentsType => Object.hasOwn(MEDIA_KINDS, v);

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
    // The scratch folder holds the input under a name of ours (never the upload's: no image2 pattern, no path).
    const source = path.join(work, "input");
    await pipeline(original, createWriteStream(source));
    const out = path.join(work, "out");
    await fs.mkdir(out);
    const url = `/media/uploads/${item.code}`;
    const checked = await checkStoredMedia(job.kind, source);
    const made =
      checked.kind === "mp4"
        ? await makeVideo(work, toolInput("mp4", source), out, url, progress)
        : checked.kind === "mp3" || checked.kind === "wav"
          ? await makeAudio(work, toolInput(checked.kind, source), checked.facts.seconds ?? 0, out, url, progress)
          : checked.kind === "ttf" || checked.kind === "otf"
            ? await checkFont(source, progress)
            : await makePicture(source, checked.kind, checked.facts, out, url);
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
        // A refusal is stored as its problem code (the console shows its message); anything else as it was said.
        error: error instanceof MediaRefusal ? error.problem : String(error instanceof Error ? error.message : error).slice(0, 500),
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
