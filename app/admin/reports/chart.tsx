import { useId } from "react";

/** A chart laid out on the server (charts.server.ts): plain SVG shapes, drawn here without any library. */
export interface ChartScene {
  width: number;
  height: number;
  rects: { x: number; y: number; w: number; h: number; series: number; title: string }[];
  paths: { d: string; series: number; kind: "line" | "area" }[];
  texts: { x: number; y: number; text: string; anchor: "start" | "middle" | "end"; kind: "tick" | "label" }[];
  lines: { x1: number; y1: number; x2: number; y2: number; kind: "grid" | "axis" }[];
}

/**
 * A chart as a figure: the SVG is one image named by its caption (the same figures are in the table beside it);
 * the legend names each series' colour.
 */
export function ReportChart({ scene, label, legend }: { scene: ChartScene; label: string; legend?: string[] }) {
  const id = useId();
  return (
    <figure className="report-chart">
      <figcaption id={id}>{label}</figcaption>
      <svg
        role="img"
        aria-labelledby={id}
        viewBox={`0 0 ${scene.width} ${scene.height}`}
        width={scene.width}
        height={scene.height}
        preserveAspectRatio="xMinYMin meet"
      >
        <title>{label}</title>
        {scene.lines.map((l, i) => (
          <line key={`l${i}`} x1={l.x1} y1={l.y1} x2={l.x2} y2={l.y2} className={`report-${l.kind}`} />
        ))}
        {scene.paths.map((p, i) => (
          <path key={`p${i}`} d={p.d} className={`report-${p.kind} report-s${p.series}`} />
        ))}
        {scene.rects.map((r, i) => (
          <rect key={`r${i}`} x={r.x} y={r.y} width={r.w} height={r.h} className={`report-bar report-s${r.series}`}>
            <title>{r.title}</title>
          </rect>
        ))}
        {scene.texts.map((t, i) => (
          <text key={`t${i}`} x={t.x} y={t.y} textAnchor={t.anchor} className={`report-${t.kind}`}>
            {t.text}
          </text>
        ))}
      </svg>
      {legend && legend.length > 1 ? (
        <ul className="report-legend">
          {legend.map((name, i) => (
            <li key={name}>
              <span className={`report-swatch report-s${i}`} aria-hidden="true" />
              {name}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}
