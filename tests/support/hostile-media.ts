import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * The hostile upload corpus (issue 25), made at test time from ffmpeg's test sources and plain bytes: files that
 * make a decoder read other files, and files whose headers ask for far more decoding than their size suggests.
 */

const enc = new TextEncoder();
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** An ID3v2.4 tag with no frames: ffmpeg's probe skips it and looks at what follows. */
export const ID3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
export const behindId3 = (text: string) => concat(ID3, enc.encode(text));

/** Runs ffmpeg quietly and answers the file it wrote. */
export function ffmpegMake(dir: string, name: string, args: string[]): Uint8Array {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", ...args, file]);
  return new Uint8Array(fs.readFileSync(file));
}

/** The playlists and scripts that name other inputs, each pointing at `secret` (an absolute path). */
export function referenceCorpus(secret: string): { name: string; bytes: Uint8Array; as: "audio" | "video" }[] {
  const url = `file://${secret}`;
  const hls = `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n${url}\n#EXT-X-ENDLIST\n`;
  return [
    { name: "ID3 + HLS playlist of a file:// secret (the reported attack)", bytes: behindId3(hls), as: "audio" },
    { name: "bare HLS playlist", bytes: enc.encode(hls), as: "audio" },
    { name: "concat script", bytes: enc.encode(`file '${secret}'\n`), as: "audio" },
    { name: "ID3 + concat script", bytes: behindId3(`file '${secret}'\nfile '${secret}'\n`), as: "audio" },
    { name: "ffconcat script", bytes: enc.encode(`ffconcat version 1.0\nfile ${secret}\nduration 7\n`), as: "audio" },
    { name: "ID3 + ffconcat script", bytes: behindId3(`ffconcat version 1.0\nfile ${secret}\n`), as: "audio" },
    {
      name: "SDP description",
      bytes: enc.encode("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=x\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 5004 RTP/AVP 14\r\n"),
      as: "audio",
    },
    {
      name: "ID3 + SDP description",
      bytes: behindId3("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=x\r\nm=audio 5004 RTP/AVP 14\r\n"),
      as: "audio",
    },
    { name: "ID3 + playlist through tee:", bytes: behindId3(`#EXTM3U\n#EXTINF:10,\ntee:${url}|${url}\n#EXT-X-ENDLIST\n`), as: "audio" },
    {
      name: "ID3 + playlist of an image2 pattern",
      bytes: behindId3(`#EXTM3U\n#EXTINF:10,\n${path.join(path.dirname(secret), "frame%03d.png")}\n#EXT-X-ENDLIST\n`),
      as: "audio",
    },
    { name: "concat: protocol address", bytes: behindId3(`concat:${secret}|${secret}`), as: "audio" },
    { name: "HLS playlist named .mp4", bytes: enc.encode(hls), as: "video" },
  ];
}

// MP4 boxes ---------------------------------------------------------------------------------------------------

interface Box {
  type: string;
  /** For containers: bytes before the children (a full box's version and flags, dref's entry count). */
  head?: Uint8Array;
  children?: Box[];
  payload?: Uint8Array;
}

const CONTAINERS: Record<string, number> = { moov: 0, trak: 0, mdia: 0, minf: 0, dinf: 0, stbl: 0, dref: 8 };
const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at);

function parseBoxes(b: Uint8Array): Box[] {
  const out: Box[] = [];
  for (let at = 0; at < b.length; ) {
    const size = u32(b, at);
    const type = Buffer.from(b.subarray(at + 4, at + 8)).toString("latin1");
    const body = b.subarray(at + 8, at + size);
    const skip = CONTAINERS[type];
    if (skip !== undefined) out.push({ type, head: body.subarray(0, skip), children: parseBoxes(body.subarray(skip)) });
    else out.push({ type, payload: body });
    at += size;
  }
  return out;
}

function box(type: string, ...parts: Uint8Array[]): Uint8Array {
  const body = concat(...parts);
  const head = new Uint8Array(8);
  new DataView(head.buffer).setUint32(0, body.length + 8);
  head.set(enc.encode(type), 4);
  return concat(head, body);
}

const serialize = (boxes: Box[]): Uint8Array =>
  concat(
    ...boxes.map((b) =>
      b.children ? box(b.type, b.head ?? new Uint8Array(), serialize(b.children)) : box(b.type, b.payload ?? new Uint8Array()),
    ),
  );

function find(boxes: Box[], type: string): Box[] {
  return boxes.flatMap((b) => [...(b.type === type ? [b] : []), ...(b.children ? find(b.children, type) : [])]);
}

/** An MP4 (moov after mdat, as ffmpeg writes it) with its moov rewritten by `edit`. */
function editMoov(mp4: Uint8Array, edit: (moov: Box) => void): Uint8Array {
  const top = parseBoxes(mp4);
  const moov = top.find((b) => b.type === "moov");
  if (!moov || top.indexOf(moov) !== top.length - 1) throw new Error("expected the moov last");
  edit(moov);
  return serialize(top);
}

/** Its data reference points at another file (a `url ` entry without the "in this file" flag). */
export function mp4WithExternalData(mp4: Uint8Array, url: string): Uint8Array {
  return editMoov(mp4, (moov) => {
    for (const dref of find([moov], "dref")) dref.children = [{ type: "url ", payload: concat(new Uint8Array(4), enc.encode(`${url}\0`)) }];
  });
}

/** A QuickTime reference movie inside it: an `rmra` naming another movie by address. */
export function mp4WithReferenceMovie(mp4: Uint8Array, url: string): Uint8Array {
  return editMoov(mp4, (moov) => {
    const u = enc.encode(`${url}\0`);
    const size = new Uint8Array(4);
    new DataView(size.buffer).setUint32(0, u.length);
    moov.children?.push({
      type: "rmra",
      children: [{ type: "rmda", children: [{ type: "rdrf", payload: concat(new Uint8Array(4), enc.encode("url "), size, u) }] }],
    });
  });
}

/** Its headers claim a `width` x `height` picture (track header and sample description). */
export function mp4WithSize(mp4: Uint8Array, width: number, height: number): Uint8Array {
  return editMoov(mp4, (moov) => {
    for (const tkhd of find([moov], "tkhd")) {
      const p = tkhd.payload as Uint8Array;
      const view = new DataView(p.buffer, p.byteOffset, p.byteLength);
      if (view.getUint32(p.length - 8) === 0) continue;
      view.setUint32(p.length - 8, width * 65536);
      view.setUint32(p.length - 4, height * 65536);
    }
    for (const stsd of find([moov], "stsd")) {
      const p = stsd.payload as Uint8Array;
      const view = new DataView(p.buffer, p.byteOffset, p.byteLength);
      // The first entry: size, type, then the visual sample entry's width and height 24 bytes in.
      if (Buffer.from(p.subarray(12, 16)).toString("latin1") !== "avc1") continue;
      view.setUint16(8 + 8 + 24, width);
      view.setUint16(8 + 8 + 26, height);
    }
  });
}

// WAV, MP3, PNG ------------------------------------------------------------------------------------------------

/** A 16-bit mono PCM WAV of `samples` (a sine), declaring `declared` data bytes (its real size by default). */
export function wavOf(rate: number, samples: number, declared?: number): Uint8Array {
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin(i / 3) * 12000), i * 2);
  const head = Buffer.alloc(44);
  head.write("RIFF", 0, "latin1");
  head.writeUInt32LE(36 + (declared ?? data.length), 4);
  head.write("WAVEfmt ", 8, "latin1");
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write("data", 36, "latin1");
  head.writeUInt32LE(declared ?? data.length, 40);
  return new Uint8Array(Buffer.concat([head, data]));
}

/** An MP3 whose Xing header says it has `frames` frames, whatever it really holds. */
export function mp3ClaimingFrames(mp3: Uint8Array, frames: number): Uint8Array {
  const out = new Uint8Array(mp3);
  const text = Buffer.from(out).toString("latin1");
  const at = Math.max(text.indexOf("Xing"), text.indexOf("Info"));
  if (at < 0) throw new Error("no Xing header");
  new DataView(out.buffer).setUint32(at + 8, frames);
  return out;
}

/** A PNG's signature and header chunk claiming `width` x `height`, then a tiny image data chunk and the end. */
export function pngClaiming(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const c = Buffer.alloc(12 + data.length);
    c.writeUInt32BE(data.length, 0);
    c.write(type, 4, "latin1");
    c.set(data, 8);
    return new Uint8Array(c);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return concat(
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", new Uint8Array(16)),
    chunk("IEND", new Uint8Array()),
  );
}
