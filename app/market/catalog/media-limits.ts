/**
 * How much an uploaded item's media may ask of the server, per kind (issue 25, point 2). The upload is refused when
 * its headers say more (app/market/catalog/media-inspect.server.ts); the media job refuses again what the decoder
 * finds, and its previews are cut to a fixed length and size. One line per figure in docs/decisions.md.
 */
export const MEDIA_LIMITS = {
  audio: {
    /** An item's whole length. */
    maxSeconds: 15 * 60,
    minSampleRate: 8_000,
    maxSampleRate: 192_000,
    maxChannels: 8,
    /** The waveform and the length are read from the audio decoded at this rate, mono, 16 bits, streamed. */
    decodeRate: 8_000,
    /** The public MP3 preview: the first minute, 128 kbit/s. */
    previewSeconds: 60,
    previewMaxBytes: 1_536 * 1024,
  },
  video: {
    maxSeconds: 10 * 60,
    maxSide: 4_096,
    maxPixels: 4_096 * 2_304,
    /** Frames of a video track (60 a second for the whole 10 minutes). */
    maxFrames: 36_000,
    /** The public clip: the first 10 s, at most 640 pixels wide and 30 frames a second, no sound. */
    previewSeconds: 10,
    previewWidth: 640,
    previewFps: 30,
    previewMaxBytes: 4 * 1024 * 1024,
  },
  /** Icons and a package's cover (PNG; an SVG has no pixels to count). */
  picture: { maxSide: 4_096 },
  /** Each ffmpeg/ffprobe run: wall time, CPU time, address space, threads, largest single allocation. */
  tool: { timeoutMs: 120_000, cpuSeconds: 120, memoryMb: 1_024, threads: 2, maxAllocBytes: 256 * 1024 * 1024 },
} as const;

/** The most decoded audio the job reads (the whole length at the decode rate): past it the decoder is stopped. */
export const AUDIO_DECODED_MAX_BYTES = MEDIA_LIMITS.audio.maxSeconds * MEDIA_LIMITS.audio.decodeRate * 2;
