import { useEffect, useRef, useState } from "react";
import type WaveSurfer from "wavesurfer.js";
import { useTranslation } from "../../i18n/react";
import { formatDuration } from "../content-card";

/**
 * The audio preview. The server renders a native <audio controls> that works without scripts and the item's
 * waveform picture (drawn from its precomputed peaks); in the browser wavesurfer.js (loaded only on pages that
 * show this player) draws the same peaks (peaks.json, no decoding of the file) over the same element and adds
 * play/pause, progress and a keyboard-friendly seek slider.
 */
export function AudioPlayer({
  src,
  title,
  waveform,
  peaks,
}: {
  src: string;
  title: string;
  waveform?: string | null;
  peaks?: string | null;
}) {
  const { t } = useTranslation();
  const audioRef = useRef<HTMLAudioElement>(null);
  const waveRef = useRef<HTMLDivElement>(null);
  const surfer = useRef<WaveSurfer | null>(null);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);

  useEffect(() => {
    let cancelled = false;
    // Precomputed peaks when the item has them; without them (or if they fail to load) wavesurfer decodes the file.
    const precomputed = peaks
      ? fetch(peaks)
          .then((r) => (r.ok ? r.json() : null))
          .then((d: { peaks?: number[]; length?: number; sampleRate?: number } | null) =>
            d?.peaks?.length && d.length && d.sampleRate ? { peaks: [d.peaks], duration: d.length / d.sampleRate } : {},
          )
          .catch(() => ({}))
      : Promise.resolve({});
    Promise.all([import("wavesurfer.js"), precomputed]).then(([{ default: WaveSurferLib }, known]) => {
      if (cancelled || !waveRef.current || !audioRef.current) return;
      const ws = WaveSurferLib.create({
        ...known,
        container: waveRef.current,
        media: audioRef.current,
        url: src,
        height: 72,
        waveColor: "#c4b5fd",
        progressColor: "#5b21b6",
        cursorColor: "#111827",
        barWidth: 2,
        barGap: 1,
        barRadius: 2,
        normalize: true,
      });
      ws.on("ready", (d) => {
        setDuration(d);
        setReady(true);
      });
      ws.on("play", () => setPlaying(true));
      ws.on("pause", () => setPlaying(false));
      ws.on("finish", () => setPlaying(false));
      ws.on("timeupdate", (current) => setTime(current));
      surfer.current = ws;
    });
    return () => {
      cancelled = true;
      surfer.current?.destroy();
      surfer.current = null;
      setReady(false);
    };
  }, [src, peaks]);

  return (
    <div className="audio-player" data-ready={ready ? "true" : "false"}>
      {/* biome-ignore lint/a11y/useMediaCaption: a music preview has no speech to caption */}
      <audio ref={audioRef} src={src} controls={!ready} preload="none" aria-label={t("item.previewOf", { title })} />
      <div className="audio-row">
        {ready ? (
          <button type="button" className="play-button" onClick={() => surfer.current?.playPause()} aria-pressed={playing}>
            {playing ? t("item.pause") : t("item.play")}
          </button>
        ) : null}
        <div className="waveform-box">
          {/* The waveform picture until the player draws its own (and without scripts). */}
          {waveform && !ready ? (
            <img className="waveform-still" src={waveform} alt={t("item.waveformOf", { title })} width={640} height={360} />
          ) : null}
          <div ref={waveRef} className="waveform" aria-hidden="true" data-testid="waveform" />
        </div>
      </div>
      {ready ? (
        <div className="audio-row">
          <input
            type="range"
            className="seek"
            min={0}
            max={Math.max(duration, 0.1)}
            step={0.1}
            value={time}
            aria-label={t("item.seek")}
            aria-valuetext={`${formatDuration(time * 1000)} / ${formatDuration(duration * 1000)}`}
            onChange={(e) => surfer.current?.setTime(Number(e.currentTarget.value))}
          />
          <span className="audio-time" data-testid="audio-time">
            {formatDuration(time * 1000)} / {formatDuration(duration * 1000)}
          </span>
        </div>
      ) : null}
    </div>
  );
}
