// Builds DOM and SVG elements from data without ever parsing markup: text goes through textContent only.

const svgNs = 'http://www.w3.org/2000/svg';

type Attrs = Readonly<Record<string, string | number | undefined>>;

export function svgEl<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, parent?: Element, text?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(svgNs, tag);
  setAttrs(el, attrs);
  if (text !== undefined) el.textContent = text;
  parent?.appendChild(el);
  return el;
}

export function htmlEl<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, parent?: Element, text?: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  if (text !== undefined) el.textContent = text;
  parent?.appendChild(el);
  return el;
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

function setAttrs(el: Element, attrs: Attrs): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined) el.setAttribute(k, String(v));
  }
}
