// A bar chart of chip results in plain SVG: one bar per label, up for a gain and down for a
// loss from a zero line, each bar titled with its exact value. Colours come from classes in
// hands.css (no style attributes: the site's CSP allows only its own stylesheets).
import { signedChips } from "../dom.js";

const NS = "http://www.w3.org/2000/svg";
const HEIGHT = 160;
const PAD_TOP = 16;
const PAD_BOTTOM = 34;
const BAR_SPACE = 44;

function svg(tag, attrs = {}, text = null) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (text !== null) el.textContent = text;
  return el;
}

/**
 * `bars`: [{label, value, title}] in the order shown. Returns an <svg> of a fixed scale (its
 * container scrolls sideways when there are many bars), with `label` as its accessible name.
 */
export function barChart(bars, label) {
  const width = Math.max(bars.length * BAR_SPACE, 280);
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${HEIGHT}`,
    width,
    height: HEIGHT,
    class: "bar-chart",
    role: "img",
    "aria-label": label,
  });
  const high = Math.max(0, ...bars.map((b) => b.value));
  const low = Math.min(0, ...bars.map((b) => b.value));
  const span = Math.max(1, high - low);
  const plot = HEIGHT - PAD_TOP - PAD_BOTTOM;
  const y = (v) => PAD_TOP + ((high - v) / span) * plot;
  const zero = y(0);
  bars.forEach((bar, n) => {
    const x = n * BAR_SPACE + BAR_SPACE * 0.2;
    const middle = x + BAR_SPACE * 0.3;
    const end = y(bar.value);
    const group = svg("g", { class: "bar", "data-label": bar.label });
    group.append(
      svg("title", {}, bar.title ?? `${bar.label}: ${signedChips(bar.value)}`),
      svg("rect", {
        x,
        y: Math.min(end, zero),
        width: BAR_SPACE * 0.6,
        height: Math.max(1, Math.abs(end - zero)),
        class: bar.value >= 0 ? "bar-up" : "bar-down",
      }),
      // The value at the bar's end, outside it: above a gain, below a loss.
      svg("text", { x: middle, y: bar.value >= 0 ? end - 3 : end + 10, class: "bar-value", "text-anchor": "middle" }, signedChips(bar.value)),
      svg("text", { x: middle, y: HEIGHT - 6, class: "bar-label", "text-anchor": "middle" }, bar.label),
    );
    chart.append(group);
  });
  chart.append(svg("line", { x1: 0, x2: width, y1: zero, y2: zero, class: "zero-line" }));
  return chart;
}
