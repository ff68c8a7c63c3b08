import fs from "node:fs/promises";
import path from "node:path";
import { svgSize } from "./media-files.server";
import type { MediaFacts } from "./media-inspect.server";
import { AUDIO_DECODED_MAX_BYTES, MEDIA_LIMITS } from "./media-limits";
import { MediaRefusal, runTool, ToolFailure, type ToolInput } from "./media-tools.server";
import { sanitizeSvg } from "./svg-sanitize.server";
import { peaksOf, waveformSvg } from "./waveform";

/**
 * The previews a media job makes from a checked upload in its scratch folder (app/market/catalog/media-jobs.server.ts
 * runs them): a video's clip and poster, an audio's MP3, peaks and waveform, a picture's copy. Every figure comes
 * from MEDIA_LIMITS; every tool run goes through media-tools.server.ts.
 */

/** ffmpeg with -progress on stdout: calls `onSeconds` with the output's time as it advances. */
function ffmpeg(args: string[], cwd: string, stdin: string | undefined, onSeconds?: (s: number) => void): Promise<void> {
  let buffered = "";
  return runTool("ffmpeg", ["-nostats", "-progress", "pipe:1", "-y", ...args], {
    cwd,
    stdin,
    onStdout: (chunk) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const m = /^out_time_(?:us|ms)=(\d+)/.exec(line);
        if (m) onSeconds?.(Number(m[1]) / 1e6);
      }
      return undefined;
    },
  }).then(() => undefined, refusalOf);
}

/** A tool that ran out of its time or memory is the file's doing: the operator is told so. */
function refusalOf(error: unknown): never {
  if (error instanceof ToolFailure && error.overLimit) throw new MediaRefusal("fileTooComplex", error.message);
  throw error;
}

interface VideoProbe {
  seconds: number;
  width: number;
  height: number;
  frames: number;
}

/** The first video stream as ffprobe reads it (the decoder's own size, not only the container's). */
async function probeVideo(input: ToolInput, cwd: string): Promise<VideoProbe | null> {
  const out = JSON.parse(
    await runTool(
      "ffprobe",
      [
        "-v",
        "error",
        ...input.args,
        "-select_streams",
        "v:0",
        "-show_entries",
        "format=duration:stream=codec_type,width,height,nb_frames",
        "-of",
        "json",
      ],
      { cwd, stdin: input.stdin },
    ).catch(refusalOf),
  ) as { format?: { duration?: string }; streams?: { codec_type?: string; width?: number; height?: number; nb_frames?: string }[] };
  const video = out.streams?.find((s) => s.codec_type === "video" && s.width && s.height);
  if (!video) return null;
  return {
    seconds: Number(out.format?.duration ?? 0) || 0,
    width: Number(video.width),
    height: Number(video.height),
    frames: Number(video.nb_frames ?? 0) || 0,
  };
}

/**
 * Decodes the whole audio to 16-bit mono samples at the decode rate, streamed: the samples are counted as they come
 * (the item's length) and only the preview's first minute is kept (its waveform); past AUDIO_DECODED_MAX_BYTES
 * the decoder is stopped and the file refused. Reports the share decoded against the length its headers declare.
 */
export async function decodeAudio(
  input: ToolInput,
  cwd: string,
  declaredSeconds: number,
  onShare: (share: number) => void = () => {},
  maxBytes = AUDIO_DECODED_MAX_BYTES,
): Promise<{ samples: number; window: Int16Array }> {
  const a = MEDIA_LIMITS.audio;
  const window = new Int16Array(a.previewSeconds * a.decodeRate);
  let kept = 0;
  let bytes = 0;
  let carry: number | null = null;
  const expected = Math.max(1, declaredSeconds * a.decodeRate * 2);
  try {
    await runTool("ffmpeg", [...input.args, "-map", "0:a:0", "-vn", "-ac", "1", "-ar", String(a.decodeRate), "-f", "s16le", "pipe:1"], {
      cwd,
      stdin: input.stdin,
      onStdout: (chunk) => {
        bytes += chunk.length;
        if (bytes > maxBytes) return false;
        let i = 0;
        if (carry !== null && chunk.length > 0) {
          if (kept < window.length) window[kept++] = (((chunk[0] << 8) | carry) << 16) >> 16;
          carry = null;
          i = 1;
        }
        for (; i + 1 < chunk.length && kept < window.length; i += 2) window[kept++] = chunk.readInt16LE(i);
        if (kept < window.length && (chunk.length - i) % 2 === 1) carry = chunk[chunk.length - 1];
        onShare(Math.min(1, bytes / expected));
        return undefined;
      },
    });
  } catch (error) {
    if (error instanceof ToolFailure && error.stopped) throw new MediaRefusal("fileAudioLimits", "decoded past the length cap");
    refusalOf(error);
  }
  return { samples: Math.floor(bytes / 2), window: window.subarray(0, kept) };
}

export type Progress = (percent: number) => Promise<void>;
export type Made = Partial<{
  preview_path: string;
  poster_path: string;
  duration_ms: number;
  width: number;
  height: number;
  font_family: string;
}>;

/** A preview over its size cap is never published (ffmpeg's -fs stops the output there; this says so if not). */
async function capped(file: string, maxBytes: number): Promise<void> {
  const { size } = await fs.stat(file);
  if (size === 0) throw new Error("the preview came out empty");
  if (size > maxBytes) throw new MediaRefusal("fileTooComplex", `preview of ${size} bytes`);
}

/** Caps a video's figures (from its container's headers or from ffprobe). */
function videoWithinLimits(v: { seconds?: number; width?: number; height?: number; frames?: number }): boolean {
  const l = MEDIA_LIMITS.video;
  const w = v.width ?? 0;
  const h = v.height ?? 0;
  return (v.seconds ?? 0) <= l.maxSeconds && w <= l.maxSide && h <= l.maxSide && w * h <= l.maxPixels && (v.frames ?? 0) <= l.maxFrames;
}

export async function makeVideo(work: string, input: ToolInput, out: string, url: string, progress: Progress): Promise<Made> {
  const info = await probeVideo(input, work);
  if (!info) throw new MediaRefusal("fileType", "no video stream");
  if (!videoWithinLimits(info)) throw new MediaRefusal("fileVideoLimits");
  await progress(10);
  const v = MEDIA_LIMITS.video;
  const clipSeconds = Math.min(v.previewSeconds, info.seconds || v.previewSeconds);
  let last = 10;
  const clip = path.join(out, "preview.mp4");
  const scale = `scale='min(${v.previewWidth},iw)':-2,format=yuv420p`;
  await ffmpeg(
    [
      ...input.args,
      "-map",
      "0:v:0",
      "-t",
      String(v.previewSeconds),
      "-frames:v",
      String(v.previewSeconds * v.previewFps),
      "-fpsmax",
      String(v.previewFps),
      "-vf",
      scale,
      "-threads",
      String(MEDIA_LIMITS.tool.threads),
      "-c:v",
      "libx264",
      "-preset",
      "veryfast",
      "-crf",
      "30",
      "-an",
      "-sn",
      "-dn",
      "-map_metadata",
      "-1",
      "-movflags",
      "+faststart",
      "-fs",
      String(v.previewMaxBytes),
      `${clip}.part.mp4`,
    ],
    work,
    input.stdin,
    (s) => {
      const now = 10 + Math.floor((Math.min(s, clipSeconds) / clipSeconds) * 70);
      if (now >= last + 5) {
        last = now;
        void progress(now);
      }
    },
  );
  await capped(`${clip}.part.mp4`, v.previewMaxBytes);
  await fs.rename(`${clip}.part.mp4`, clip);
  await progress(80);
  const poster = path.join(out, "poster.jpg");
  const at = info.seconds > 2 ? 1 : 0;
  await ffmpeg(
    [
      "-ss",
      String(at),
      ...input.args,
      "-map",
      "0:v:0",
      "-frames:v",
      "1",
      "-vf",
      `scale='min(${v.previewWidth},iw)':-2`,
      "-q:v",
      "4",
      "-map_metadata",
      "-1",
      `${poster}.part.jpg`,
    ],
    work,
    input.stdin,
  );
  await capped(`${poster}.part.jpg`, v.previewMaxBytes);
  await fs.rename(`${poster}.part.jpg`, poster);
  await progress(95);
  return {
    preview_path: `${url}/preview.mp4`,
    poster_path: `${url}/poster.jpg`,
    duration_ms: Math.round(info.seconds * 1000),
    width: info.width,
    height: info.height,
  };
}

export async function makeAudio(
  work: string,
  input: ToolInput,
  declaredSeconds: number,
  out: string,
  url: string,
  progress: Progress,
): Promise<Made> {
  const a = MEDIA_LIMITS.audio;
  await progress(5);
  let last = 5;
  const decoded = await decodeAudio(input, work, declaredSeconds, (share) => {
    const now = 5 + Math.floor(share * 45);
    if (now >= last + 5) {
      last = now;
      void progress(now);
    }
  });
  if (decoded.samples === 0) throw new MediaRefusal("fileDamaged", "no audio samples");
  // The waveform is the preview's: the player draws it over the preview's own length.
  const peaks = peaksOf(decoded.window);
  await fs.writeFile(
    path.join(out, "peaks.json"),
    JSON.stringify({ version: 2, sampleRate: a.decodeRate, length: decoded.window.length, seconds: decoded.samples / a.decodeRate, peaks }),
  );
  await fs.writeFile(path.join(out, "waveform.svg"), waveformSvg(peaks));
  await progress(55);
  const preview = path.join(out, "preview.mp3");
  const total = Math.min(a.previewSeconds, decoded.samples / a.decodeRate);
  last = 55;
  await ffmpeg(
    [
      ...input.args,
      "-map",
      "0:a:0",
      "-vn",
      "-t",
      String(a.previewSeconds),
      "-ac",
      "2",
      "-ar",
      "44100",
      "-codec:a",
      "libmp3lame",
      "-b:a",
      "128k",
      "-map_metadata",
      "-1",
      "-fs",
      String(a.previewMaxBytes),
      `${preview}.part.mp3`,
    ],
    work,
    input.stdin,
    (s) => {
      const now = 55 + Math.floor((Math.min(s, total) / Math.max(total, 0.001)) * 40);
      if (now >= last + 5) {
        last = now;
        void progress(now);
      }
    },
  );
  await capped(`${preview}.part.mp3`, a.previewMaxBytes);
  await fs.rename(`${preview}.part.mp3`, preview);
  return {
    preview_path: `${url}/preview.mp3`,
    poster_path: `${url}/waveform.svg`,
    duration_ms: Math.round((decoded.samples / a.decodeRate) * 1000),
  };
}

export async function makePicture(source: string, kind: "png" | "svg", facts: MediaFacts, out: string, url: string): Promise<Made> {
  let size: { width: number; height: number } | null = null;
  if (kind === "png" && facts.width && facts.height) size = { width: facts.width, height: facts.height };
  if (kind === "svg") {
    // What is published is the parser's serialization of the allowed elements and attributes, never the upload.
    const clean = sanitizeSvg(new Uint8Array(await fs.readFile(source)));
    if (!clean.ok) throw new Error(`the SVG was refused: ${clean.reason}`);
    const bytes = new TextEncoder().encode(clean.svg);
    size = svgSize(bytes);
    await fs.writeFile(path.join(out, "picture.svg"), bytes);
  } else await fs.copyFile(source, path.join(out, `picture.${kind}`));
  return {
    preview_path: `${url}/picture.${kind}`,
    poster_path: `${url}/picture.${kind}`,
    ...(size ? { width: size.width, height: size.height } : {}),
  };
}
