import zlib from "node:zlib";

/**
 * A page kept compressed once and sent compressed many times with different values in a few places (each visitor's
 * CSP nonce, a member's nickname), without compressing it again per request.
 *
 * The text between the places is compressed at the template's making, each piece as a DEFLATE stream of its own
 * ending with a sync flush (RFC 1951: its blocks end on a byte boundary and nothing in it refers to bytes before
 * its start). A response is the gzip header (RFC 1952), the pieces in order with each value between them as a
 * stored (uncompressed) block, an empty final block, and the trailer: the CRC-32 and length of the whole text. The
 * CRC-32 of the whole is carried through each compressed piece with a precomputed operator (what zlib's
 * crc32_combine computes) and through each value with zlib.crc32, so no piece is decompressed or read again.
 */
export interface SplicedTemplate {
  /** The compressed pieces, one after the other. */
  packed: Buffer;
  /** Per piece: its end in `packed`, the CRC-32 and length of its text, and the operator that moves a CRC past it. */
  ends: number[];
  crcs: number[];
  lengths: number[];
  shifts: number[][];
  /**
   * What goes between piece i and piece i + 1 (holes.length === pieces - 1): the name of a value, or a piece of
   * text that many templates share (compressed once, kept once: `sharedPiece`).
   */
  holes: (string | SharedPiece)[];
  /** Bytes of text in the pieces (without the values). */
  textBytes: number;
}

/**
 * A place in the text to fill per response: its byte offset, its length in the text, and the value's name; or a
 * place holding text that many templates share (`shared`: its bytes are those of the text at that place).
 */
export interface Hole {
  at: number;
  length: number;
  name: string;
  shared?: SharedPiece;
}

/** Text compressed once for every template that holds it (e.g. the page's translations, the same on every page). */
export interface SharedPiece {
  packed: Buffer;
  crc: number;
  length: number;
  shift: Operator;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** An empty final block with fixed Huffman codes (BFINAL = 1, BTYPE = 01, end-of-block): what zlib ends with. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** A stored block holds at most 65,535 bytes. */
const STORED_MAX = 0xffff;

// --- CRC-32 operators (zlib's crc32_combine, with the operator for a piece's length computed once) ------------

// Operators are plain arrays of 32 numbers (on V8's heap): typed arrays of 128 bytes would each be a small malloc
// outside it, and the many made while computing one left the allocator's arenas fragmented.
type Operator = number[];

function gf2Times(matrix: Operator, vector: number): number {
  let sum = 0;
  let v = vector >>> 0;
  for (let i = 0; v !== 0; i++, v >>>= 1) if (v & 1) sum ^= matrix[i];
  return sum >>> 0;
}

function gf2Square(matrix: Operator): Operator {
  const square: Operator = new Array(32);
  for (let n = 0; n < 32; n++) square[n] = gf2Times(matrix, matrix[n]);
  return square;
}

function gf2Compose(a: Operator, b: Operator): Operator {
  // (a ∘ b)(v) = a(b(v)): column n of the result is a applied to column n of b.
  const out: Operator = new Array(32);
  for (let n = 0; n < 32; n++) out[n] = gf2Times(a, b[n]);
  return out;
}

const IDENTITY: Operator = Array.from({ length: 32 }, (_, n) => (1 << n) >>> 0);
/** One zero byte: the polynomial step for one bit (odd), squared three times. */
const ONE_BYTE: Operator = (() => {
  const bit: Operator = [0xedb88320];
  for (let n = 1; n < 32; n++) bit.push((1 << (n - 1)) >>> 0);
  return gf2Square(gf2Square(gf2Square(bit)));
})();

/** The operator that moves a CRC-32 past `bytes` bytes: crc32(A + B) = shift(len B)(crc32(A)) ^ crc32(B). */
export function crc32Shift(bytes: number): Operator {
  // Powers of one zero byte, one per bit of the length.
  let power = ONE_BYTE;
  let result = IDENTITY;
  for (let n = bytes; n > 0; n = Math.floor(n / 2)) {
    if (n % 2 === 1) result = gf2Compose(power, result);
    if (n > 1) power = gf2Square(power);
  }
  return result;
}

/** The CRC-32 of A + B from the CRC-32 of A, that of B and the operator for B's length. */
export function crc32Combine(crcA: number, crcB: number, shiftB: Operator): number {
  return (gf2Times(shiftB, crcA) ^ crcB) >>> 0;
}

// --- the template and its responses ------------------------------------------------------------------------

/** One piece as a DEFLATE stream of its own that ends on a byte boundary (a sync flush). */
function deflatePiece(piece: Buffer, level: number): Buffer {
  // Output chunks of at least 128 KiB: with the server's malloc settings (a 64 KiB mmap threshold) they are mapped
  // and given back when freed, where zlib's default 16 KiB chunks, freed between the kept pieces, left the
  // allocator's arenas fragmented (some 4 times the kept bytes in resident memory).
  if (piece.length === 0) return Buffer.alloc(0);
  return zlib.deflateRawSync(piece, {
    level,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
    chunkSize: Math.max(128 * 1024, piece.length + 1024),
  });
}

/** Text many templates hold, compressed once. */
export function sharedPiece(text: Buffer, level = 6): SharedPiece {
  // A copy of its own size: the output may be a view of a larger chunk.
  return { packed: Buffer.from(deflatePiece(text, level)), crc: zlib.crc32(text), length: text.length, shift: crc32Shift(text.length) };
}

/** Splits `text` at `holes` (sorted, not overlapping) and compresses each piece. */
export function makeTemplate(text: Buffer, holes: Hole[], level = 6): SplicedTemplate {
  const pieces: Buffer[] = [];
  let from = 0;
  for (const hole of holes) {
    pieces.push(text.subarray(from, hole.at));
    from = hole.at + hole.length;
  }
  pieces.push(text.subarray(from));
  const compressed = pieces.map((piece) => deflatePiece(piece, level));
  const ends: number[] = [];
  let end = 0;
  for (const c of compressed) {
    end += c.length;
    ends.push(end);
  }
  return {
    packed: Buffer.concat(compressed),
    ends,
    crcs: pieces.map((piece) => zlib.crc32(piece)),
    lengths: pieces.map((piece) => piece.length),
    shifts: pieces.map((piece) => crc32Shift(piece.length)),
    holes: holes.map((hole) => hole.shared ?? hole.name),
    textBytes: pieces.reduce((n, piece) => n + piece.length, 0),
  };
}

function storedBlocks(value: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < value.length; at += STORED_MAX) {
    const chunk = value.subarray(at, at + STORED_MAX);
    const len = chunk.length;
    out.push(Buffer.from([0x00, len & 0xff, len >> 8, ~len & 0xff, (~len >> 8) & 0xff]), chunk);
  }
  return out;
}

/**
 * The gzip response for these values (every hole's name must have one): buffers to write one after the other,
 * views of the template's bytes with the values' blocks between them.
 */
export function gzipParts(template: SplicedTemplate, values: Record<string, Buffer>): Buffer[] {
  const parts: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let length = 0;
  let start = 0;
  for (let i = 0; i < template.ends.length; i++) {
    if (template.ends[i] > start) parts.push(template.packed.subarray(start, template.ends[i]));
    start = template.ends[i];
    crc = crc32Combine(crc, template.crcs[i], template.shifts[i]);
    length += template.lengths[i];
    if (i < template.holes.length) {
      const hole = template.holes[i];
      if (typeof hole !== "string") {
        parts.push(hole.packed);
        crc = crc32Combine(crc, hole.crc, hole.shift);
        length += hole.length;
        continue;
      }
      const value = values[hole];
      if (value === undefined) throw new Error(`no value for ${hole}`);
      if (value.length > 0) {
        parts.push(...storedBlocks(value));
        crc = zlib.crc32(value, crc);
        length += value.length;
      }
    }
  }
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  parts.push(FINAL_BLOCK, trailer);
  return parts;
}

/** The text for these values, uncompressed (for a client that does not take gzip). */
export function plainText(template: SplicedTemplate, values: Record<string, Buffer>): Buffer {
  return zlib.gunzipSync(Buffer.concat(gzipParts(template, values)));
}

/** Bytes the template holds (compressed pieces, its tables; not the shared pieces it refers to). */
export function templateBytes(template: SplicedTemplate): number {
  return template.packed.length + template.ends.length * (8 * 3 + 32 * 8 + 32) + template.holes.length * 16;
}
