/**
 * Audio waveforms from precomputed peaks: the seed and the console's media jobs compute an item's peaks once
 * (`peaksOf`), keep them as `peaks.json` beside the preview, and draw them as a picture (`waveformSvg`) that is the
 * item's poster: audio cards show it, and the detail page's player draws the same peaks without decoding the file.
 */

export const PEAK_COUNT = 400;

/** The largest magnitude in each of `count` slices of 16-bit samples, from 0 to 1 (three decimals). */
export function peaksOf(samples: Int16Array, count = PEAK_COUNT): number[] {
  const n = Math.max(1, Math.min(count, samples.length));
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * samples.length) / n);
    const to = Math.max(from + 1, Math.floor(((i + 1) * samples.length) / n));
    let peak = 0;
    for (let k = from; k < to && k < samples.length; k++) peak = Math.max(peak, Math.abs(samples[k]));
    out.push(Math.round((Math.min(peak, 32767) / 32767) * 1000) / 1000);
  }
  return out;
}

/** The 16-bit samples of a mono or stereo PCM WAV file (its first channel), or null when it is not one. */
export function wavSamples(wav: Buffer): Int16Array | null {
  if (wav.length < 44 || wav.toString("ascii", 0, 4) !== "RIFF" || wav.toString("ascii", 8, 12) !== "WAVE") return null;
  let at = 12;
  let channels = 1;
  let bits = 16;
  while (at + 8 <= wav.length) {
    const id = wav.toString("ascii", at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === "fmt ") {
      channels = wav.readUInt16LE(at + 10);
      bits = wav.readUInt16LE(at + 22);
    } else if (id === "data") {
      if (bits !== 16) return null;
      const frames = Math.floor(Math.min(size, wav.length - at - 8) / (2 * channels));
      const out = new Int16Array(frames);
      for (let i = 0; i < frames; i++) out[i] = wav.readInt16LE(at + 8 + i * 2 * channels);
      return out;
    }
    at += 8 + size + (size % 2);
  }
  return null;
}

/** `count` bars from the peaks (the largest in each group), scaled so the loudest bar fills the height. */
export function barsOf(peaks: readonly number[], count: number): number[] {
  if (peaks.length === 0) return [];
  const n = Math.min(count, peaks.length);
  const bars: number[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * peaks.length) / n);
    const to = Math.max(from + 1, Math.floor(((i + 1) * peaks.length) / n));
    bars.push(Math.max(...peaks.slice(from, to)));
  }
  const top = Math.max(...bars, 0.001);
  return bars.map((b) => b / top);
}

/**
 * The waveform as a 16:9 SVG picture: mirrored rounded bars over a soft background, in the store's violet (sound
 * effects, `accent: "effect"`, in teal so the two kinds tell apart at a glance).
 */
export function waveformSvg(peaks: readonly number[], accent: "music" | "effect" = "music"): string {
  const width = 640;
  const height = 360;
  const bars = barsOf(peaks, 64);
  const [bg1, bg2, ink1, ink2] =
    accent === "effect" ? ["#f0fdfa", "#ccfbf1", "#0f766e", "#2dd4bf"] : ["#f5f3ff", "#ede9fe", "#5b21b6", "#a78bfa"];
  const step = (width - 64) / Math.max(1, bars.length);
  const bar = Math.max(2, step * 0.6);
  const mid = height / 2;
  const rects = bars
    .map((b, i) => {
      const h = Math.max(4, b * (height * 0.62));
      const x = 32 + i * step + (step - bar) / 2;
      return `<rect x="${x.toFixed(1)}" y="${(mid - h / 2).toFixed(1)}" width="${bar.toFixed(1)}" height="${h.toFixed(1)}" rx="${(bar / 2).toFixed(1)}"/>`;
    })
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"><defs><linearGradient id="b" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${bg1}"/><stop offset="1" stop-color="${bg2}"/></linearGradient><linearGradient id="w" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${ink1}"/><stop offset="1" stop-color="${ink2}"/></linearGradient></defs><rect width="${width}" height="${height}" fill="url(#b)"/><g fill="url(#w)">${rects}</g></svg>\n`;
}

/** Where an audio item's peaks are, from its waveform picture's address (they sit side by side). */
export function peaksUrlOf(waveformUrl: string | null): string | null {
  return waveformUrl && /waveform\.svg$/.test(waveformUrl) ? waveformUrl.replace(/waveform\.svg$/, "peaks.json") : null;
}
