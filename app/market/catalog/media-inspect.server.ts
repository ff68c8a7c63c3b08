import fs from "node:fs/promises";
import type { FileProblem, MediaKind } from "./media-files.server";
import { MEDIA_LIMITS } from "./media-limits";

/**
 * Reads an upload's container from its bytes before anything decodes it (issue 25): the structure must be the one
 * its first bytes claim, all the way through the headers the decoder will follow, and what the headers declare
 * must fit the kind's caps (MEDIA_LIMITS).
 *
 * - MP3: ID3 tags are skipped by their declared sizes and real MPEG audio frames must follow (three in a row), so
 *   a playlist, concat script or SDP behind an ID3 tag (ffmpeg's probe skips the tag and follows what is behind
 *   it) is refused; its length comes from the Xing/VBRI header or the frames' bit rate.
 * - WAV: its chunks walked; PCM or float, rate, channels and bits in range, the data no longer than the file.
 * - MP4: its boxes walked with their sizes checked; every data reference must be self-contained (no `url `/`alis`
 *   naming another file), no reference movie (`rmra`...); every video track's size, frames and length checked.
 * - PNG: its chunks walked to IEND, its size from IHDR.
 * The source is read by ranges, so a file on disk is never read whole.
 */

export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export function bytesSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)) };
}

/** A file read by ranges; `close` when done. */
export async function fileSource(file: string): Promise<ByteSource & { close(): Promise<void> }> {
  const handle = await fs.open(file, "r");
  const { size } = await handle.stat();
  return {
    size,
    read: async (offset, length) => {
      const n = Math.max(0, Math.min(length, size - offset));
      const buf = new Uint8Array(n);
      if (n > 0) await handle.read(buf, 0, n, offset);
      return buf;
    },
    close: () => handle.close(),
  };
}

/** What the headers say, for the job and the item's row. */
export interface MediaFacts {
  seconds?: number;
  width?: number;
  height?: number;
  frames?: number;
  sampleRate?: number;
  channels?: number;
}

export type Inspection = { ok: true; facts: MediaFacts } | { ok: false; problem: FileProblem };

const refuse = (problem: FileProblem): Inspection => ({ ok: false, problem });
const latin1 = (b: Uint8Array, from = 0, to = b.length) =>
  Buffer.from(b.buffer, b.byteOffset + from, Math.max(0, Math.min(to, b.length) - from)).toString("latin1");
const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32le = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + ((b[at + 3] << 24) >>> 0);
const u64be = (b: Uint8Array, at: number) => u32be(b, at) * 2 ** 32 + u32be(b, at + 4);

/**
 * Whether bytes read as a text that names other inputs: an M3U/HLS playlist, an ffconcat or concat script, an SDP
 * description, a PLS/ASX/SMIL/DASH playlist, or any address or ffmpeg protocol (file:, concat:, subfile,, tee:...).
 */
export function namesOtherInputs(bytes: Uint8Array): boolean {
  const head = latin1(bytes, 0, 4096).replace(/^\uFEFF|^\xEF\xBB\xBF/, "");
  if (head.length === 0) return false;
  let printable = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c === 9 || c === 10 || c === 13 || (c >= 32 && c < 127) || c >= 160) printable++;
  }
  if (printable / head.length < 0.9) return false;
  return (
    /^\s*(?:#EXTM3U|#EXT-X-|#EXTINF|ffconcat\b|file\s|v=0\b|\[playlist\]|<\?xml|<smil|<asx|<MPD|<playlist|RTSP\/)/i.test(head) ||
    /\b(?:[a-z][a-z0-9+.-]*:\/\/|(?:file|concat|concatf|subfile|tee|crypto|data|pipe|fd|cache|async|hls|rtp|rtsp|srtp|udp|tcp|unix)[:,])/i.test(
      head,
    )
  );
}

export async function inspectMedia(kind: MediaKind, source: ByteSource): Promise<Inspection> {
  switch (kind) {
    case "mp3":
      return inspectMp3(source);
    case "wav":
      return inspectWav(source);
    case "mp4":
      return inspectMp4(source);
    case "png":
      return inspectPng(source);
    default:
      return { ok: true, facts: {} };
  }
}

// MP3 -----------------------------------------------------------------------------------------------------------

const MP3_RATES: Record<number, readonly number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };
const MP3_BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

interface Mp3Frame {
  version: number;
  rate: number;
  bitrate: number;
  length: number;
  samples: number;
  mono: boolean;
}

/** An MPEG audio layer III frame header (free-format bit rates refused). */
function mp3Frame(b: Uint8Array, at = 0): Mp3Frame | null {
  if (b.length < at + 4 || b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) return null;
  const version = (b[at + 1] >> 3) & 3;
  const layer = (b[at + 1] >> 1) & 3;
  const bitIndex = b[at + 2] >> 4;
  const rateIndex = (b[at + 2] >> 2) & 3;
  if (version === 1 || layer !== 1 || bitIndex === 0 || bitIndex === 15 || rateIndex === 3) return null;
  const rate = MP3_RATES[version][rateIndex];
  const bitrate = (version === 3 ? MP3_BITRATES_V1 : MP3_BITRATES_V2)[bitIndex] * 1000;
  const padding = (b[at + 2] >> 1) & 1;
  const samples = version === 3 ? 1152 : 576;
  const length = Math.floor(((samples / 8) * bitrate) / rate) + padding;
  return { version, rate, bitrate, length, samples, mono: b[at + 3] >> 6 === 3 };
}

async function inspectMp3(source: ByteSource): Promise<Inspection> {
  let at = 0;
  // ID3v2 tags, one after another, each skipped by its own (sync-safe) size.
  for (;;) {
    const head = await source.read(at, 10);
    if (head.length < 10 || latin1(head, 0, 3) !== "ID3") break;
    if (head[3] < 2 || head[3] > 4 || head[6] & 0x80 || head[7] & 0x80 || head[8] & 0x80 || head[9] & 0x80) return refuse("fileDamaged");
    at += 10 + ((head[6] << 21) | (head[7] << 14) | (head[8] << 7) | head[9]) + (head[5] & 0x10 ? 10 : 0);
    if (at >= source.size) return refuse("fileDamaged");
  }
  // Some writers pad after the tag with zeros.
  for (let skipped = 0; skipped < 65_536 && at < source.size; ) {
    const chunk = await source.read(at, 4096);
    let i = 0;
    while (i < chunk.length && chunk[i] === 0) i++;
    at += i;
    skipped += i;
    if (i < chunk.length) break;
  }
  const start = await source.read(at, 4096);
  const first = mp3Frame(start);
  if (!first) return refuse(namesOtherInputs(start) ? "fileReference" : "fileDamaged");
  // Three frames in a row with the same version and rate (or the file ends on a frame boundary).
  let next = at;
  for (let n = 0; n < 3; n++) {
    if (next === source.size && n > 0) break;
    const frame = mp3Frame(await source.read(next, 4));
    if (!frame || frame.version !== first.version || frame.rate !== first.rate) return refuse("fileDamaged");
    next += frame.length;
    if (next > source.size) return refuse("fileDamaged");
  }
  // The length: the first frame's Xing/Info or VBRI frame count, else the bytes at the first frame's bit rate.
  const side = first.version === 3 ? (first.mono ? 17 : 32) : first.mono ? 9 : 17;
  const tag = latin1(start, 4 + side, 8 + side);
  let frames = 0;
  if ((tag === "Xing" || tag === "Info") && start[8 + side + 3] & 1) frames = u32be(start, 12 + side);
  else if (latin1(start, 36, 40) === "VBRI") frames = u32be(start, 50);
  const seconds = frames > 0 ? (frames * first.samples) / first.rate : ((source.size - at) * 8) / first.bitrate;
  if (seconds > MEDIA_LIMITS.audio.maxSeconds) return refuse("fileAudioLimits");
  return { ok: true, facts: { seconds, sampleRate: first.rate, channels: first.mono ? 1 : 2 } };
}

// WAV -----------------------------------------------------------------------------------------------------------

const WAV_BITS: Record<number, readonly number[]> = { 1: [8, 16, 24, 32], 3: [32, 64] };

async function inspectWav(source: ByteSource): Promise<Inspection> {
  const head = await source.read(0, 12);
  if (latin1(head, 0, 4) !== "RIFF" || latin1(head, 8, 12) !== "WAVE") return refuse("fileType");
  if (u32le(head, 4) + 8 > source.size) return refuse("fileDamaged");
  let fmt: { tag: number; channels: number; rate: number; byteRate: number; align: number; bits: number } | null = null;
  let at = 12;
  while (at + 8 <= source.size) {
    const chunk = await source.read(at, 8);
    const id = latin1(chunk, 0, 4);
    const size = u32le(chunk, 4);
    if (!/^[\x20-\x7e]{4}$/.test(id)) return refuse("fileDamaged");
    // Declared longer than the file holds (a decoder would trust the declaration).
    if (at + 8 + size > source.size) return refuse("fileDamaged");
    if (id === "fmt ") {
      if (size < 16) return refuse("fileDamaged");
      const f = await source.read(at + 8, Math.min(size, 40));
      let tag = u16le(f, 0);
      if (tag === 0xfffe && f.length >= 26) tag = u16le(f, 24);
      fmt = { tag, channels: u16le(f, 2), rate: u32le(f, 4), byteRate: u32le(f, 8), align: u16le(f, 12), bits: u16le(f, 14) };
      if (!WAV_BITS[tag]?.includes(fmt.bits)) return refuse("fileType");
      if (fmt.channels < 1 || fmt.align !== (fmt.channels * fmt.bits) / 8 || fmt.byteRate !== fmt.rate * fmt.align)
        return refuse("fileDamaged");
      const a = MEDIA_LIMITS.audio;
      if (fmt.channels > a.maxChannels || fmt.rate < a.minSampleRate || fmt.rate > a.maxSampleRate) return refuse("fileAudioLimits");
    } else if (id === "data") {
      if (!fmt) return refuse("fileDamaged");
      const seconds = size / fmt.byteRate;
      if (seconds > MEDIA_LIMITS.audio.maxSeconds) return refuse("fileAudioLimits");
      return { ok: true, facts: { seconds, sampleRate: fmt.rate, channels: fmt.channels } };
    }
    at += 8 + size + (size % 2);
  }
  return refuse("fileDamaged");
}

// MP4 -----------------------------------------------------------------------------------------------------------

/** Boxes whose payload is boxes. `meta` is read apart (ISO's has a version before its boxes, QuickTime's does not). */
const CONTAINERS = new Set([
  "moov",
  "trak",
  "mdia",
  "minf",
  "dinf",
  "stbl",
  "edts",
  "udta",
  "mvex",
  "moof",
  "traf",
  "mfra",
  "tref",
  "gmhd",
]);
const LENIENT = new Set(["udta", "meta", "gmhd"]);
/** QuickTime reference movies: a movie that is only addresses of other movies. */
const REFERENCE_BOXES = new Set(["rmra", "rmda", "rdrf", "rmdr", "rmcs", "rmvc", "rmcd", "rmqu"]);
/** The moov is read into memory to be walked; a larger one is not a 20 MB upload's. */
const MAX_MOOV_BYTES = 16 * 1024 * 1024;

interface Box {
  type: string;
  /** Payload start and end (absolute in the buffer or file). */
  from: number;
  to: number;
}

/** The boxes between `from` and `to` of a buffer; null when a size runs past its parent or a type is not a name. */
function boxesIn(b: Uint8Array, from: number, to: number): Box[] | null {
  const out: Box[] = [];
  let at = from;
  while (at < to) {
    if (at + 8 > to) return null;
    let size = u32be(b, at);
    const type = latin1(b, at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) return null;
      size = u64be(b, at + 8);
      header = 16;
    } else if (size === 0) size = to - at;
    if (!/^[\x20-\x7e\xa9]{4}$/.test(type) || size < header || at + size > to) return null;
    out.push({ type, from: at + header, to: at + size });
    at += size;
  }
  return out;
}

interface Track {
  id: number;
  handler: string;
  width: number;
  height: number;
  frames: number;
  seconds: number;
}

async function inspectMp4(source: ByteSource): Promise<Inspection> {
  // The top level, read header by header (the media data is never read).
  const top: { type: string; from: number; to: number }[] = [];
  for (let at = 0; at < source.size; ) {
    const h = await source.read(at, 16);
    if (h.length < 8) return refuse("fileDamaged");
    let size = u32be(h, 0);
    const type = latin1(h, 4, 8);
    let header = 8;
    if (size === 1) {
      if (h.length < 16) return refuse("fileDamaged");
      size = u64be(h, 8);
      header = 16;
    } else if (size === 0) size = source.size - at;
    if (!/^[\x20-\x7e\xa9]{4}$/.test(type) || size < header || at + size > source.size) return refuse("fileDamaged");
    top.push({ type, from: at + header, to: at + size });
    at += size;
  }
  if (top[0]?.type !== "ftyp") return refuse("fileType");
  const moovs = top.filter((b) => b.type === "moov");
  if (moovs.length !== 1) return refuse("fileDamaged");
  if (top.some((b) => REFERENCE_BOXES.has(b.type))) return refuse("fileReference");
  const boxes: { buf: Uint8Array; box: Box }[] = [];
  for (const t of top) {
    if (t.type !== "moov" && t.type !== "moof" && t.type !== "meta") continue;
    if (t.to - t.from > MAX_MOOV_BYTES) return refuse("fileVideoLimits");
    boxes.push({ buf: await source.read(t.from, t.to - t.from), box: { type: t.type, from: 0, to: t.to - t.from } });
  }

  const tracks: Track[] = [];
  const fragmentFrames = new Map<number, number>();
  let movieSeconds = 0;
  let problem: FileProblem | null = null;

  const walk = (b: Uint8Array, parent: Box, track: Track | null, fragmentTrack: { id: number } | null): void => {
    let from = parent.from;
    if (parent.type === "meta") {
      // ISO: version and flags, then boxes; QuickTime: boxes at once (the first one's type is hdlr).
      if (latin1(b, from + 4, from + 8) !== "hdlr") from += 4;
    }
    const children = boxesIn(b, from, parent.to);
    if (!children) {
      // User data and metadata may end in a terminator or hold a writer's own layout: ffmpeg follows nothing there.
      if (!LENIENT.has(parent.type)) problem ??= "fileDamaged";
      return;
    }
    for (const box of children) {
      if (problem) return;
      const p = box.from;
      if (REFERENCE_BOXES.has(box.type)) {
        problem = "fileReference";
        return;
      }
      switch (box.type) {
        case "trak": {
          const t: Track = { id: 0, handler: "", width: 0, height: 0, frames: 0, seconds: 0 };
          tracks.push(t);
          walk(b, box, t, null);
          break;
        }
        case "traf":
          walk(b, box, null, { id: 0 });
          break;
        case "tfhd":
          if (fragmentTrack) fragmentTrack.id = u32be(b, p + 4);
          break;
        case "trun":
          if (fragmentTrack) fragmentFrames.set(fragmentTrack.id, (fragmentFrames.get(fragmentTrack.id) ?? 0) + u32be(b, p + 4));
          break;
        case "dref": {
          // Every entry must say "the data is in this file" (flag 1) and name nothing.
          const entries = boxesIn(b, p + 8, box.to);
          if (!entries) problem = "fileDamaged";
          else if (
            entries.length !== u32be(b, p + 4) ||
            entries.some((e) => !(b[e.from + 3] & 1) || b.subarray(e.from + 4, e.to).some((x) => x !== 0))
          )
            problem = "fileReference";
          break;
        }
        case "mvhd":
        case "mdhd": {
          const v1 = b[p] === 1;
          const scale = u32be(b, p + (v1 ? 20 : 12));
          const duration = v1 ? u64be(b, p + 24) : u32be(b, p + 16);
          const seconds = scale > 0 ? duration / scale : 0;
          if (box.type === "mvhd") movieSeconds = seconds;
          else if (track) track.seconds = seconds;
          break;
        }
        case "tkhd": {
          const v1 = b[p] === 1;
          if (track) {
            track.id = u32be(b, p + (v1 ? 20 : 12));
            track.width = Math.max(track.width, u32be(b, box.to - 8) / 65536);
            track.height = Math.max(track.height, u32be(b, box.to - 4) / 65536);
          }
          break;
        }
        case "hdlr":
          if (track && !track.handler) track.handler = latin1(b, p + 8, p + 12);
          break;
        case "stsd":
          if (track) {
            const entries = boxesIn(b, p + 8, box.to);
            if (!entries) problem = "fileDamaged";
            else if (track.handler === "vide")
              for (const e of entries) {
                if (e.to - e.from < 28) continue;
                track.width = Math.max(track.width, u16be(b, e.from + 24));
                track.height = Math.max(track.height, u16be(b, e.from + 26));
              }
          }
          break;
        case "stsz":
        case "stz2":
          if (track) track.frames = u32be(b, p + 8);
          break;
        default:
          if (CONTAINERS.has(box.type) || box.type === "meta") walk(b, box, track, fragmentTrack);
      }
    }
  };
  for (const { buf, box } of boxes) {
    walk(buf, { type: box.type === "meta" ? "meta" : "root", from: 0, to: box.to }, null, null);
    if (problem) return refuse(problem);
  }
  const video = tracks.filter((t) => t.handler === "vide");
  if (video.length === 0) return refuse("fileType");
  const v = MEDIA_LIMITS.video;
  for (const t of video) {
    const frames = t.frames + (fragmentFrames.get(t.id) ?? 0);
    if (t.width > v.maxSide || t.height > v.maxSide || t.width * t.height > v.maxPixels) return refuse("fileVideoLimits");
    if (frames > v.maxFrames || t.seconds > v.maxSeconds) return refuse("fileVideoLimits");
  }
  if (movieSeconds > v.maxSeconds) return refuse("fileVideoLimits");
  const main = video[0];
  return {
    ok: true,
    facts: {
      seconds: movieSeconds || main.seconds,
      width: main.width,
      height: main.height,
      frames: main.frames + (fragmentFrames.get(main.id) ?? 0),
    },
  };
}

// PNG -----------------------------------------------------------------------------------------------------------

async function inspectPng(source: ByteSource): Promise<Inspection> {
  const head = await source.read(0, 33);
  if (head.length < 33 || u32be(head, 8) !== 13 || latin1(head, 12, 16) !== "IHDR") return refuse("fileDamaged");
  const width = u32be(head, 16);
  const height = u32be(head, 20);
  if (width === 0 || height === 0) return refuse("fileDamaged");
  if (width > MEDIA_LIMITS.picture.maxSide || height > MEDIA_LIMITS.picture.maxSide) return refuse("filePictureLimits");
  for (let at = 8; ; ) {
    const chunk = await source.read(at, 8);
    if (chunk.length < 8) return refuse("fileDamaged");
    const length = u32be(chunk, 0);
    if (at + 12 + length > source.size) return refuse("fileDamaged");
    if (latin1(chunk, 4, 8) === "IEND") break;
    at += 12 + length;
  }
  return { ok: true, facts: { width, height } };
}
