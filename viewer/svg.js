// Builds SVG nodes the way dom.js builds HTML ones: attributes set one by one (never `style`,
// which the CSP forbids inline), strings as text nodes.
const NS = 'http://www.w3.org/2000/svg';

/** s('rect', { x: 1, class: 'bar' }, child…): an SVG element. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A bar chart laid out by barChartLayout, as an <svg> with a label for screen readers. */
export function barChartSvg(layout, { name, metric }) {
  return s(
    'svg',
    {
      class: 'chart',
      viewBox: `0 0 ${layout.width} ${layout.height}`,
      role: 'img',
      'aria-label': name,
      dataset: { metric },
    },
    layout.ticks.map((tick) => [
      s('line', { class: 'grid', x1: layout.left, x2: layout.width - 8, y1: tick.y, y2: tick.y }),
      s('text', { class: 'tick', x: layout.left - 6, y: tick.y + 4, 'text-anchor': 'end' }, tick.label),
    ]),
    layout.bars.map((bar) =>
      s(
        'rect',
        {
          class: 'chart-bar',
          x: bar.x,
          y: bar.y,
          width: bar.width,
          height: bar.height,
          dataset: { key: bar.key, value: String(bar.value) },
        },
        s('title', {}, bar.text),
      ),
    ),
    layout.bars
      .filter((bar) => bar.label)
      .map((bar) =>
        s('text', { class: 'tick', x: bar.labelX, y: layout.axisY + 16, 'text-anchor': 'middle' }, bar.label),
      ),
  );
}
