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
  shifts: Uint32Array[];
  /** What goes between piece i and piece i + 1: the name of a value (holes.length === pieces - 1). */
  holes: string[];
  /** Bytes of text in the pieces (without the values). */
  textBytes: number;
}

/** A place in the text to fill per response: its byte offset, its length in the text, and the value's name. */
export interface Hole {
  at: number;
  length: number;
  name: string;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** An empty final block with fixed Huffman codes (BFINAL = 1, BTYPE = 01, end-of-block): what zlib ends with. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** A stored block holds at most 65,535 bytes. */
const STORED_MAX = 0xffff;

// --- CRC-32 operators (zlib's crc32_combine, with the operator for a piece's length computed once) ------------

function gf2Times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  let v = vector >>> 0;
  for (let i = 0; v !== 0; i++, v >>>= 1) if (v & 1) sum ^= matrix[i];
  return sum >>> 0;
}

function gf2Square(matrix: Uint32Array): Uint32Array {
  const square = new Uint32Array(32);
  for (let n = 0; n < 32; n++) square[n] = gf2Times(matrix, matrix[n]);
  return square;
}

function gf2Compose(a: Uint32Array, b: Uint32Array): Uint32Array {
  // (a ∘ b)(v) = a(b(v)): column n of the result is a applied to column n of b.
  const out = new Uint32Array(32);
  for (let n = 0; n < 32; n++) out[n] = gf2Times(a, b[n]);
  return out;
}

const IDENTITY = Uint32Array.from({ length: 32 }, (_, n) => (1 << n) >>> 0);

/** The operator that moves a CRC-32 past `bytes` bytes: crc32(A + B) = shift(len B)(crc32(A)) ^ crc32(B). */
export function crc32Shift(bytes: number): Uint32Array {
  // One zero bit: the CRC's polynomial step.
  const bit = new Uint32Array(32);
  bit[0] = 0xedb88320;
  for (let n = 1; n < 32; n++) bit[n] = (1 << (n - 1)) >>> 0;
  // One zero byte (8 bits: three squarings), then its powers, one per bit of the length.
  let power: Uint32Array = gf2Square(gf2Square(gf2Square(bit)));
  let result: Uint32Array = IDENTITY;
  for (let n = bytes; n > 0; n = Math.floor(n / 2)) {
    if (n % 2 === 1) result = gf2Compose(power, result);
    if (n > 1) power = gf2Square(power);
  }
  return result;
}

/** The CRC-32 of A + B from the CRC-32 of A, that of B and the operator for B's length. */
export function crc32Combine(crcA: number, crcB: number, shiftB: Uint32Array): number {
  return (gf2Times(shiftB, crcA) ^ crcB) >>> 0;
}

// --- the template and its responses ------------------------------------------------------------------------

/** Splits `text` at `holes` (sorted, not overlapping) and compresses each piece. */
export function makeTemplate(text: Buffer, holes: Hole[], level = 6): SplicedTemplate {
  const pieces: Buffer[] = [];
  let from = 0;
  for (const hole of holes) {
    pieces.push(text.subarray(from, hole.at));
    from = hole.at + hole.length;
  }
  pieces.push(text.subarray(from));
  const compressed = pieces.map((piece) =>
    piece.length === 0 ? Buffer.alloc(0) : zlib.deflateRawSync(piece, { level, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  );
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
    holes: holes.map((hole) => hole.name),
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
      const value = values[template.holes[i]];
      if (value === undefined) throw new Error(`no value for ${template.holes[i]}`);
      if (value.length > 0) {
        parts.push(...storedBlocks(value));
        crc = zlib.crc32(value, crc);
        length += value.length;
      }
    }
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  parts.push(FINAL_BLOCK, trailer);
  return parts;
}

/** The text for these values, uncompressed (for a client that does not take gzip). */
export function plainText(template: SplicedTemplate, values: Record<string, Buffer>): Buffer {
  return zlib.gunzipSync(Buffer.concat(gzipParts(template, values)));
}

/** Bytes the template holds (compressed pieces, its tables). */
export function templateBytes(template: SplicedTemplate): number {
  return template.packed.length + template.ends.length * (4 * 3 + 128 + 16) + template.holes.length * 16;
}
