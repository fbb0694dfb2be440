/**
 * What a screen hides by its layout (issue 42): content wider than its box with no scroller to reach
 * it, and controls whose text is cut. Measured in the page as it is now; each finding names the
 * element ("select#expires_in_days ...") and its numbers.
 */
import type { Page } from 'playwright-core';

/**
 * Runs in the page, as text (the browser's types are not the tests'). Three kinds of findings:
 *
 * - **too wide**: an element of `<main>` whose content sticks out of its box (scrollWidth over
 *   clientWidth) while no ancestor scrolls sideways (overflow-x auto or scroll, and wider inside
 *   than outside); only the innermost such element is named, with its widest child;
 * - **cut**: an element that hides what overflows it (overflow hidden or clip, either axis);
 * - **text cut**: a select whose longest option, a text input's placeholder, a number input's
 *   value, or a date or time input whose fields do not fit inside its padding (and the arrow or the
 *   spin buttons). A text field's typed value is left out: it scrolls with the caret.
 *
 * Leaflet's map panes and visually hidden text are left out: they clip on purpose.
 */
const MEASURE = `(() => {
  const main = document.querySelector('main');
  if (!main) return ['no <main> on the page'];
  const findings = [];
  const name = (el) => {
    let text = el.tagName.toLowerCase();
    if (el.id) text += '#' + el.id;
    const classes = [...el.classList].filter((c) => !c.startsWith('col-')).slice(0, 3);
    if (classes.length) text += '.' + classes.join('.');
    const label = el.getAttribute('aria-label') || (el.labels && el.labels[0] ? el.labels[0].textContent : '') || el.textContent || '';
    const words = label.trim().replace(/\\s+/g, ' ').slice(0, 40);
    return words ? text + ' "' + words + '"' : text;
  };
  // Visually hidden on purpose: clipped to nothing (a stacked table's head, a caption), or a map's panes.
  const hidden = [...main.querySelectorAll('*')].filter((el) => {
    const style = getComputedStyle(el);
    return (style.clipPath !== 'none' || style.clip !== 'auto') && el.getBoundingClientRect().width <= 1;
  });
  const exempt = (el) =>
    !!el.closest('.leaflet-container, .visually-hidden, .visually-hidden-focusable, svg, canvas, [hidden]') ||
    hidden.some((h) => h.contains(el));
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const scrollsX = (el) => {
    const style = getComputedStyle(el);
    return (style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
  };
  const inScroller = (el) => {
    for (let at = el; at && at !== document.documentElement; at = at.parentElement) if (scrollsX(at)) return true;
    return false;
  };
  const widestChild = (el) => {
    let widest = null;
    let right = -Infinity;
    for (const child of el.children) {
      const box = child.getBoundingClientRect();
      if (box.right > right) { right = box.right; widest = child; }
    }
    return widest ? ' (' + name(widest) + ', ' + Math.round(widest.getBoundingClientRect().width) + ' px)' : '';
  };
  const tooWide = [];
  for (const el of main.querySelectorAll('*')) {
    if (!(el instanceof HTMLElement) || el.clientWidth === 0 || exempt(el) || !shown(el)) continue;
    const style = getComputedStyle(el);
    const clipsX = style.overflowX === 'hidden' || style.overflowX === 'clip';
    const clipsY = style.overflowY === 'hidden' || style.overflowY === 'clip';
    if (clipsX && el.scrollWidth > el.clientWidth + 1 && !(el instanceof HTMLInputElement) && !(el instanceof HTMLSelectElement))
      findings.push('cut: ' + name(el) + ' hides ' + (el.scrollWidth - el.clientWidth) + ' px of its ' + el.scrollWidth + ' px wide content');
    if (clipsY && el.scrollHeight > el.clientHeight + 1 && !(el instanceof HTMLInputElement) && !(el instanceof HTMLSelectElement))
      findings.push('cut: ' + name(el) + ' hides ' + (el.scrollHeight - el.clientHeight) + ' px of its ' + el.scrollHeight + ' px high content');
    if (style.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1 && !inScroller(el)) tooWide.push(el);
  }
  // A grid row reaches into its container's padding by its gutter (negative margins), on purpose.
  const onlyGutters = (el) => {
    const edge = el.getBoundingClientRect().left + el.clientLeft + el.clientWidth;
    const out = [...el.children].filter((child) => child.getBoundingClientRect().right > edge + 1);
    return out.length > 0 && out.every((child) => {
      const gutter = -parseFloat(getComputedStyle(child).marginRight);
      return gutter > 0 && child.getBoundingClientRect().right <= edge + gutter + 1;
    });
  };
  for (const el of tooWide) {
    if (tooWide.some((other) => other !== el && el.contains(other)) || onlyGutters(el)) continue;
    findings.push('too wide: ' + name(el) + ' holds ' + el.scrollWidth + ' px in ' + el.clientWidth + ' px' + widestChild(el));
  }

  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  const textWidth = (el, text) => {
    const style = getComputedStyle(el);
    context.font = style.fontStyle + ' ' + style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
    return context.measureText(text).width;
  };
  const room = (el) => {
    const style = getComputedStyle(el);
    return el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  };
  for (const el of main.querySelectorAll('select, input')) {
    if (exempt(el) || !shown(el) || el.clientWidth === 0) continue;
    if (el instanceof HTMLSelectElement) {
      if (el.multiple || el.size > 1) continue;
      // Any option may be the chosen one: the longest must fit.
      const options = [...el.options].map((option) => option.text);
      if (options.length === 0) continue;
      const longest = options.reduce((a, b) => (textWidth(el, b) > textWidth(el, a) ? b : a));
      // A native select draws its arrow inside the padding; a .form-select's padding holds its arrow already.
      const arrow = getComputedStyle(el).appearance === 'none' ? 0 : 20;
      const need = textWidth(el, longest);
      if (need > room(el) - arrow + 1)
        findings.push('text cut: ' + name(el) + ' would show "' + longest + '" (' + Math.ceil(need) + ' px) in ' + Math.floor(room(el) - arrow) + ' px');
      continue;
    }
    const type = el.type;
    if (['date', 'time', 'datetime-local', 'month', 'week'].includes(type)) {
      // The browser sizes a free date or time input to its fields; a narrower one cuts them.
      const free = el.cloneNode();
      free.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none;flex:none;left:0;top:0';
      document.body.appendChild(free);
      const need = free.offsetWidth;
      free.remove();
      if (el.offsetWidth + 1 < need)
        findings.push('text cut: ' + name(el) + ' (' + type + ') is ' + el.offsetWidth + ' px wide, its fields need ' + need + ' px');
      continue;
    }
    if (!['text', 'email', 'number', 'search', 'tel', 'url', ''].includes(type)) continue;
    // A typed value scrolls with the caret, as in any text field; a placeholder or a number cannot.
    const text = type === 'number' ? el.value || el.placeholder : el.value ? '' : el.placeholder;
    if (!text) continue;
    // A number input keeps room for its spin buttons.
    const spin = type === 'number' ? 16 : 0;
    const need = textWidth(el, text);
    if (need > room(el) - spin + 1)
      findings.push('text cut: ' + name(el) + ' shows "' + text + '" (' + Math.ceil(need) + ' px) in ' + Math.floor(room(el) - spin) + ' px');
  }
  return findings;
})()`;

/** Every element of the main content the layout hides or cuts, as readable findings (none: `[]`). */
export function hiddenByLayout(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(MEASURE);
}
