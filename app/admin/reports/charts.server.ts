import { scaleBand, scaleLinear } from "d3-scale";
import { area, line, stack, stackOffsetDiverging } from "d3-shape";
import type { Locale } from "../../i18n/config";
import type { ChartScene } from "./chart";

/**
 * The reports' charts, laid out on the server with d3-scale and d3-shape: the loader hands the page a scene of
 * plain SVG shapes (ChartScene) that the page draws, so the charts are in the HTML, need no JavaScript and add
 * nothing to the browser's bundle (d3 stays on the server).
 */

const WIDTH = 720;
const HEIGHT = 260;
const MARGIN = { top: 12, right: 16, bottom: 30, left: 72 };

export type ValueFormat = "count" | "KRW" | "USD";

const round = (n: number) => Math.round(n * 10) / 10;

/** A tick's text: counts as integers, money in its currency (USD values are cents), compact when large. */
function tickFormatter(format: ValueFormat, locale: Locale) {
  const tag = locale === "ko" ? "ko-KR" : "en-US";
  if (format === "count") {
    const f = new Intl.NumberFormat(tag, { maximumFractionDigits: 0, notation: "compact" });
    return (v: number) => f.format(v);
  }
  const f = new Intl.NumberFormat(tag, {
    style: "currency",
    currency: format,
    notation: "compact",
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  });
  return (v: number) => f.format(format === "USD" ? v / 100 : v);
}

/** Day labels: MM-DD, thinned to at most about ten under the axis. */
function dayLabel(day: string) {
  return day.slice(5);
}

function valueAxis(scene: ChartScene, y: (v: number) => number, ticks: number[], format: ValueFormat, locale: Locale) {
  const text = tickFormatter(format, locale);
  for (const t of ticks) {
    const at = round(y(t));
    scene.lines.push({ x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: at, y2: at, kind: t === 0 ? "axis" : "grid" });
    scene.texts.push({ x: MARGIN.left - 6, y: at + 4, text: text(t), anchor: "end", kind: "tick" });
  }
}

const integerTicks = (ticks: number[], format: ValueFormat) => (format === "count" ? ticks.filter((t) => Number.isInteger(t)) : ticks);

/**
 * Stacked columns, one per category (days), a layer per series; values may be negative (a day of more refunds
 * than sales) and then stack below the zero line.
 */
export function columnChart(
  categories: string[],
  series: { key: string; values: number[] }[],
  format: ValueFormat,
  locale: Locale,
  titleOf: (category: string, key: string, value: number) => string,
): ChartScene {
  const scene: ChartScene = { width: WIDTH, height: HEIGHT, rects: [], paths: [], texts: [], lines: [] };
  const rows = categories.map((c, i) => Object.fromEntries([["category", c], ...series.map((s) => [s.key, s.values[i] ?? 0])]));
  const layers = stack<Record<string, number | string>>()
    .keys(series.map((s) => s.key))
    .value((row, key) => Number(row[key]) || 0)
    .offset(stackOffsetDiverging)(rows);
  const lo = Math.min(0, ...layers.flatMap((l) => l.map((p) => p[0])));
  const hi = Math.max(1, ...layers.flatMap((l) => l.map((p) => p[1])));
  const x = scaleBand<string>()
    .domain(categories)
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.2);
  const y = scaleLinear()
    .domain([lo, hi])
    .nice(5)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  valueAxis(scene, y, integerTicks(y.ticks(5), format), format, locale);
  layers.forEach((layer, s) => {
    layer.forEach((point, i) => {
      const value = point[1] - point[0];
      if (value === 0) return;
      const top = y(Math.max(point[0], point[1]));
      const bottom = y(Math.min(point[0], point[1]));
      scene.rects.push({
        x: round(x(categories[i]) ?? 0),
        y: round(top),
        w: round(x.bandwidth()),
        h: Math.max(0.5, round(bottom - top)),
        series: s,
        title: titleOf(categories[i], series[s].key, series[s].values[i] ?? 0),
      });
    });
  });
  categoryLabels(scene, categories, (c) => (x(c) ?? 0) + x.bandwidth() / 2);
  return scene;
}

/** Lines (with the first series' area under it), one point per category (days). */
export function lineChart(
  categories: string[],
  series: { key: string; values: number[] }[],
  format: ValueFormat,
  locale: Locale,
): ChartScene {
  const scene: ChartScene = { width: WIDTH, height: HEIGHT, rects: [], paths: [], texts: [], lines: [] };
  const all = series.flatMap((s) => s.values);
  const x = scaleBand<string>()
    .domain(categories)
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0);
  const at = (i: number) => (x(categories[i]) ?? 0) + x.bandwidth() / 2;
  const y = scaleLinear()
    .domain([Math.min(0, ...all), Math.max(1, ...all)])
    .nice(5)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  valueAxis(scene, y, integerTicks(y.ticks(5), format), format, locale);
  series.forEach((s, index) => {
    const points = s.values.map((v, i) => [at(i), y(v)] as [number, number]);
    if (index === 0) {
      const under = area<[number, number]>()
        .x((p) => round(p[0]))
        .y0(round(y(0)))
        .y1((p) => round(p[1]))(points);
      if (under) scene.paths.push({ d: under, series: index, kind: "area" });
    }
    const path = line<[number, number]>()
      .x((p) => round(p[0]))
      .y((p) => round(p[1]))(points);
    if (path) scene.paths.push({ d: path, series: index, kind: "line" });
  });
  categoryLabels(scene, categories, (_c, i) => at(i));
  return scene;
}

function categoryLabels(scene: ChartScene, categories: string[], xOf: (c: string, i: number) => number) {
  const every = Math.max(1, Math.ceil(categories.length / 10));
  categories.forEach((c, i) => {
    if (i % every !== 0 && i !== categories.length - 1) return;
    if (i === categories.length - 1 && i % every !== 0 && i % every < every / 2) return;
    scene.texts.push({ x: round(xOf(c, i)), y: HEIGHT - MARGIN.bottom + 18, text: dayLabel(c), anchor: "middle", kind: "tick" });
  });
}

const BAR_ROW = 26;
const BAR_LEFT = 220;
/** Room for the last tick's text, centred on the right end. */
const BAR_RIGHT = 40;

/** Horizontal bars, one per labelled row (types, items), longest first as given. */
export function barChart(rows: { label: string; value: number }[], format: ValueFormat, locale: Locale): ChartScene {
  const height = MARGIN.top + Math.max(1, rows.length) * BAR_ROW + MARGIN.bottom;
  const scene: ChartScene = { width: WIDTH, height, rects: [], paths: [], texts: [], lines: [] };
  const values = rows.map((r) => r.value);
  const x = scaleLinear()
    .domain([Math.min(0, ...values), Math.max(1, ...values)])
    .nice(5)
    .range([BAR_LEFT, WIDTH - BAR_RIGHT]);
  const y = scaleBand<number>()
    .domain(rows.map((_r, i) => i))
    .range([MARGIN.top, height - MARGIN.bottom])
    .padding(0.25);
  const text = tickFormatter(format, locale);
  for (const t of integerTicks(x.ticks(5), format)) {
    const at = round(x(t));
    scene.lines.push({ x1: at, x2: at, y1: MARGIN.top, y2: height - MARGIN.bottom, kind: t === 0 ? "axis" : "grid" });
    scene.texts.push({ x: at, y: height - MARGIN.bottom + 18, text: text(t), anchor: "middle", kind: "tick" });
  }
  rows.forEach((r, i) => {
    const top = y(i) ?? 0;
    const from = x(Math.min(0, r.value));
    const to = x(Math.max(0, r.value));
    scene.rects.push({
      x: round(from),
      y: round(top),
      w: Math.max(0.5, round(to - from)),
      h: round(y.bandwidth()),
      series: 0,
      title: `${r.label}: ${text(r.value)}`,
    });
    const label = r.label.length > 30 ? `${r.label.slice(0, 29)}…` : r.label;
    scene.texts.push({ x: BAR_LEFT - 8, y: round(top + y.bandwidth() / 2 + 4), text: label, anchor: "end", kind: "label" });
  });
  return scene;
}
