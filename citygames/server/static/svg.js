// Small SVG drawing helpers shared by the game renderer modules (capitals.js, seven_wonders_duel.js).

export const NS = "http://www.w3.org/2000/svg";

/** Create an SVG element with `attrs` (null, undefined and false values are left out), appended to `parent`. */
export function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  if (attrs) for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** A <text> element at (x, y) holding `s`. */
export function txt(parent, x, y, s, attrs) {
  const t = el("text", { x, y, ...attrs }, parent);
  t.textContent = s;
  return t;
}

/**
 * Text that never overflows `maxW` (SVG units), estimating a glyph as `charW` x the font size:
 * squeezed with textLength up to `slack` x, cut with an ellipsis beyond that.
 */
export function fitText(parent, x, y, s, maxW, size, attrs = {}, charW = 0.5, slack = 1.25) {
  let str = String(s);
  let est = str.length * size * charW;
  if (est > maxW * slack) {
    const keep = Math.max(1, Math.floor((maxW * (slack - 0.02)) / (size * charW)) - 1);
    str = str.slice(0, keep).trimEnd() + "…";
    est = str.length * size * charW;
  }
  const a = { "font-size": size, ...attrs };
  if (est > maxW) { a.textLength = maxW.toFixed(1); a.lengthAdjust = "spacingAndGlyphs"; }
  return txt(parent, x, y, str, a);
}

/**
 * Greedy word wrap by estimated width into at most `maxLines` lines. Overflow: with `ellipsis`
 * the last line ends in " …", else the rest is joined onto the last line (for fitText to squeeze).
 */
export function wrap(s, maxW, size, maxLines, charW = 0.5, ellipsis = true) {
  const words = String(s).split(/\s+/).filter(Boolean);
  const lines = [];
  let cur = "";
  for (const w of words) {
    const cand = cur ? cur + " " + w : w;
    if (!cur || cand.length * size * charW <= maxW) cur = cand;
    else { lines.push(cur); cur = w; }
  }
  if (cur) lines.push(cur);
  if (lines.length <= maxLines) return lines;
  const head = lines.slice(0, maxLines - 1);
  head.push(ellipsis ? lines[maxLines - 1].replace(/\s*\S*$/, "") + " …" : lines.slice(maxLines - 1).join(" "));
  return head;
}
