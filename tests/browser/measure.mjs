// What a reader sees of a page, measured in it (issue 40): overflow past the screen, boxes that
// scroll sideways, and the size of every visible text on the screen. Passed to `page.evaluate`.

/**
 * What a reader of the page sees, measured in the page: the elements that reach past the screen's
 * edges (unless a box of their own that fits the screen clips them: a scrolling list, a cell that
 * ends in "…"), the boxes that scroll sideways, and every visible text with its size on the screen.
 * An SVG text's size is its font size times its screen matrix's scale: a 14 px label in a 960-wide
 * drawing shown 364 px wide is 5.3 px.
 */
export function measure() {
  const width = document.documentElement.clientWidth;
  const describe = (e) => {
    const cls = e.className?.baseVal ?? e.className ?? '';
    return `${e.tagName.toLowerCase()}${cls ? '.' + String(cls).trim().split(/\s+/).join('.') : ''}`;
  };
  const clipsX = (e) => ['hidden', 'auto', 'scroll', 'clip'].includes(getComputedStyle(e).overflowX);
  const visible = (e) => e.checkVisibility({ visibilityProperty: true, opacityProperty: false });
  const out = [];
  const scrolling = [];
  const texts = [];
  for (const e of document.querySelectorAll('body *')) {
    if (!visible(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > width + 0.5 || r.left < -0.5) {
      let clipped = false;
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
        const ar = a.getBoundingClientRect();
        if (clipsX(a) && ar.right <= width + 0.5 && ar.left >= -0.5) { clipped = true; break; }
      }
      if (!clipped) out.push({ what: describe(e), left: Math.round(r.left), right: Math.round(r.right) });
    }
    const style = getComputedStyle(e);
    if (['auto', 'scroll'].includes(style.overflowX) && e.scrollWidth > e.clientWidth + 1 && !(e instanceof SVGElement)) {
      scrolling.push({ what: describe(e), scroll: e.scrollWidth, client: e.clientWidth });
    }
    const own = [...e.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
    if (own.length === 0) continue;
    // Text clipped away entirely (a visually hidden label) is not read from the screen.
    if (r.width < 2 || r.height < 2) continue;
    let size = parseFloat(style.fontSize);
    if (e instanceof SVGElement) {
      const m = e.getScreenCTM();
      size *= m ? Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) : 1;
    }
    texts.push({ what: describe(e), text: own.map((n) => n.textContent.trim()).join(' ').slice(0, 40),
      size: Math.round(size * 10) / 10 });
  }
  texts.sort((a, b) => a.size - b.size);
  const widest = Math.max(...[...document.querySelectorAll('body *')].filter(visible)
    .map((e) => e.getBoundingClientRect().right));
  return { width, scrollWidth: document.documentElement.scrollWidth, widest: Math.round(widest), out, scrolling,
    smallest: texts[0] ?? null, small: texts.filter((x) => x.size < 11) };
}

