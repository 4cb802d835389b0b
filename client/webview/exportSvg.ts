// Serializes a drawing as a standalone SVG file: theme colours are resolved into attributes, since the file has no VS Code CSS.
import { svgEl } from './dom';

const painted = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'font-family', 'font-size', 'font-weight', 'opacity', 'display'] as const;

export function exportSvg(original: SVGSVGElement, width: number, height: number, background: string): string {
  const copy = original.cloneNode(true) as SVGSVGElement;
  const from = original.querySelectorAll('*');
  const to = copy.querySelectorAll('*');
  for (let i = 0; i < from.length && i < to.length; i++) {
    const style = getComputedStyle(from[i]);
    for (const p of painted) {
      const v = style.getPropertyValue(p);
      if (v) to[i].setAttribute(p, v);
    }
    to[i].removeAttribute('tabindex');
  }
  // The file shows the whole drawing at scale 1, whatever the zoom and pan on screen.
  copy.querySelectorAll('[data-viewport]').forEach((g) => g.removeAttribute('transform'));
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  copy.setAttribute('viewBox', `0 0 ${width} ${height}`);
  copy.setAttribute('font-family', getComputedStyle(original).getPropertyValue('font-family'));
  copy.insertBefore(svgEl('rect', { width, height, fill: background }), copy.firstChild);
  return xmlSafe(new XMLSerializer().serializeToString(copy));
}

/**
 * XMLSerializer writes U+0000 and the other characters XML forbids as they are, and a file holding one does not parse.
 * Names are shown through displayText, which marks control characters visibly; anything XML forbids that remains
 * (a lone surrogate, U+FFFE) becomes U+FFFD, so the file always parses.
 */
export function xmlSafe(xml: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this matches
  return xml.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
