import { escapeHtml } from '../html-escape';

/** Variant colours, in variant order (colour-blind-safe enough to tell eight apart with the legend). */
const PALETTE: readonly string[] = [
  '#2563eb',
  '#d97706',
  '#059669',
  '#dc2626',
  '#7c3aed',
  '#0891b2',
  '#be185d',
  '#4d7c0f',
];
export const colourOf = (index: number): string => PALETTE[index % PALETTE.length]!;

/** A coordinate with one decimal: smaller files, same picture. */
export const at = (n: number): string => (Math.round(n * 10) / 10).toString();

/** The plot area inside a chart of `width` × `height`. */
export interface Plot {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export const plotOf = (
  width: number,
  height: number,
  margin: { left: number; right: number; top: number; bottom: number },
): Plot => ({
  width,
  height,
  left: margin.left,
  right: width - margin.right,
  top: margin.top,
  bottom: height - margin.bottom,
});

/** The `<svg>` start tag with its accessible title; drawn with presentation attributes only (no style attributes, for the CSP). */
export const svgStart = (plot: Plot, id: string, title: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="${id}" width="${plot.width}" height="${plot.height}" viewBox="0 0 ${plot.width} ${plot.height}" role="img" aria-labelledby="${id}-title"><title id="${id}-title">${escapeHtml(title)}</title>`;

export const text = (x: number, y: number, content: string, attrs = ''): string =>
  `<text x="${at(x)}" y="${at(y)}" font-size="11" fill="#374151"${attrs ? ` ${attrs}` : ''}>${escapeHtml(content)}</text>`;

export const line = (x1: number, y1: number, x2: number, y2: number, stroke: string, width = 1): string =>
  `<line x1="${at(x1)}" y1="${at(y1)}" x2="${at(x2)}" y2="${at(y2)}" stroke="${stroke}" stroke-width="${width}"/>`;

/** Round tick values from 0 to at least `max`: 1, 2 or 5 times a power of ten apart. */
export function ticks(max: number, wanted = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / wanted;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = 0; v < max + step * 0.999; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** A horizontal grid line with its label on the left, for each tick of the y scale. */
export function yAxis(
  plot: Plot,
  values: readonly number[],
  y: (v: number) => number,
  label: (v: number) => string,
): string {
  return values
    .map(
      (v) =>
        line(plot.left, y(v), plot.right, y(v), '#e5e7eb') +
        text(plot.left - 6, y(v) + 4, label(v), 'text-anchor="end"'),
    )
    .join('');
}

/** The variants' colours, in a row under the title. */
export function legend(plot: Plot, variants: readonly string[]): string {
  let x = plot.left;
  return variants
    .map((name, i) => {
      const item = `<rect x="${at(x)}" y="8" width="10" height="10" fill="${colourOf(i)}"/>${text(x + 14, 17, name)}`;
      x += 24 + Math.min(name.length, 40) * 6.5;
      return item;
    })
    .join('');
}
