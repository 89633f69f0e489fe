// Builds DOM nodes from data without ever parsing it as HTML: every string becomes a text node.

/**
 * h('div', { class: 'step', dataset: { step: '7' }, onclick: fn }, 'text', child, [more])
 * Attribute values are set with setAttribute (never `style`, which the CSP forbids inline);
 * children are nodes or strings (as text nodes); null/undefined/false children are skipped.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (/html/i.test(key)) throw new Error(`h(): ${key} is not allowed; pass text children`);
    if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = String(value);
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/** Appends children (nodes, strings as text, nested arrays); skips empty ones. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces every child of `el`. */
export function replaceChildren(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}
