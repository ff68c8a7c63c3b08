import type { ContentsType } from "../../db/schema";
import { isSfnt } from "./harfbuzz.server";
import { bytesSource, inspectMedia, namesOtherInputs } from "./media-inspect.server";
import { sanitizeSvg } from "./svg-sanitize.server";

/**
 * What an uploaded media file really is, by its first bytes (the name and the browser's type can lie), and which
 * kinds each item type takes: video mp4, audio mp3 or wav, icon png or svg, font ttf or otf, and a package an
 * optional cover picture (png or svg).
 */
export type MediaKind = "mp4" | "mp3" | "wav" | "png" | "svg" | "ttf" | "otf";

export const MEDIA_KINDS: Record<ContentsType, readonly MediaKind[]> = {
  video: ["mp4"],
  audio: ["mp3", "wav"],
  icon: ["png", "svg"],
  font: ["ttf", "otf"],
  package: ["png", "svg"],
};

/** The largest upload kept: the server reads a multipart body of at most 24 MiB (server.ts). */
export const MEDIA_MAX_BYTES = 20 * 1024 * 1024;

/** How much of the new-item form post is read (app/utils/multipart.server.ts): the file and the fields. */
export const MEDIA_FORM_LIMITS = { maxFileBytes: MEDIA_MAX_BYTES, maxBodyBytes: MEDIA_MAX_BYTES + 1024 * 1024, maxParts: 24 };

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.max(0, Math.min(to, bytes.length) - from)).toString("latin1");

// What may come before an SVG's root: the XML declaration, comments, and (so that such a file is refused as unsafe,
// not as of another kind) a DOCTYPE or a processing instruction; the root may have a prefix (`<svg:svg>`).
const SVG_START =
  /^(?:\s*<\?xml\s[^>]*\?>)?(?:\s*<!--[\s\S]*?-->|\s*<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>|\s*<\?[\s\S]*?\?>)*\s*<(?:[A-Za-z_][\w.-]*:)?svg[\s>]/i;

export function mediaKind(bytes: Uint8Array): MediaKind | null {
  if (bytes.length < 12) return null;
  if (ascii(bytes, 4, 8) === "ftyp") return ascii(bytes, 8, 12) === "qt  " ? null : "mp4";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WAVE") return "wav";
  if (ascii(bytes, 0, 3) === "ID3") return "mp3";
  // An MPEG audio frame header: the sync bits, MPEG layer III.
  if (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0 && ((bytes[1] >> 1) & 3) === 1) return "mp3";
  if (bytes[0] === 0x89 && ascii(bytes, 1, 8) === "PNG\r\n\x1a\n") return "png";
  if (isSfnt(bytes)) return ascii(bytes, 0, 4) === "OTTO" ? "otf" : "ttf";
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 4096))
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  if (SVG_START.test(head)) return "svg";
  return null;
}

/**
 * An SVG is served from the store's own origin (/media), so it is read by an XML parser and checked against an
 * allow-list (svg-sanitize.server.ts): one that cannot be read is damaged; one with scripts, event attributes,
 * foreign objects, document types and entities, javascript: values, links or styles that reach outside the picture
 * is unsafe; one too large a tree is past the SVG limits. The published picture is the parser's serialization.
 */
export function svgProblem(bytes: Uint8Array): FileProblem | null {
  const checked = sanitizeSvg(bytes);
  if (checked.ok) return null;
  return checked.problem === "hostile" ? "fileUnsafe" : checked.problem === "limits" ? "fileSvgLimits" : "fileDamaged";
}

export const svgIsSafe = (bytes: Uint8Array): boolean => svgProblem(bytes) === null;

/**
 * Why a file was refused; each has a message (admin.catalog.problems.<problem>). The media job records the same
 * codes when it refuses a stored file (fileTooComplex: the decoder ran out of its time or memory).
 */
export const FILE_PROBLEMS = [
  "fileMissing",
  "fileType",
  "fileUnsafe",
  "fileTooLarge",
  "fileReference",
  "fileDamaged",
  "fileAudioLimits",
  "fileVideoLimits",
  "filePictureLimits",
  "fileSvgLimits",
  "fileTooComplex",
] as const;
export type FileProblem = (typeof FILE_PROBLEMS)[number];
export const isFileProblem = (v: unknown): v is FileProblem => (FILE_PROBLEMS as readonly unknown[]).includes(v);

/**
 * Checks an upload for an item type: answers its kind, or why not. Its kind comes from its first bytes; its
 * container is then read through (inspectMedia): references to other inputs, a structure that is not what the
 * first bytes claim, and declared sizes past the kind's caps are refused before anything decodes it.
 */
export async function checkMediaFile(type: ContentsType, bytes: Uint8Array | null): Promise<MediaKind | FileProblem | null> {
  if (!bytes || bytes.length === 0) return type === "package" ? null : "fileMissing";
  if (bytes.length > MEDIA_MAX_BYTES) return "fileTooLarge";
  const kind = mediaKind(bytes);
  if (!kind) return namesOtherInputs(bytes) ? "fileReference" : "fileType";
  if (!MEDIA_KINDS[type].includes(kind)) return "fileType";
  if (kind === "svg") {
    const problem = svgProblem(bytes);
    if (problem) return problem;
  }
  const inspected = await inspectMedia(kind, bytesSource(bytes));
  return inspected.ok ? kind : inspected.problem;
}

/** A PNG's size from its header chunk. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24 || ascii(bytes, 12, 16) !== "IHDR") return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** An SVG's size from its width and height (or its viewBox), when they are plain numbers. */
export function svgSize(bytes: Uint8Array): { width: number; height: number } | null {
  const tag = /<svg\b[^>]*>/i.exec(Buffer.from(bytes).toString("utf8"))?.[0];
  if (!tag) return null;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']\\s*([\\d.]+)(?:px)?\\s*["']`, "i").exec(tag)?.[1];
  const w = attr("width");
  const h = attr("height");
  if (w && h) return { width: Math.round(Number(w)), height: Math.round(Number(h)) };
  const box = /\sviewBox\s*=\s*["']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*["']/i.exec(tag);
  return box ? { width: Math.round(Number(box[1])), height: Math.round(Number(box[2])) } : null;
}
