import type { Page } from '@playwright/test';

/**
 * What on the page scrolls sideways or is cut: every rendered element whose content is wider
 * than its box (scrollWidth > clientWidth, 1 px of rounding allowed), and the page itself.
 * One exception: a deliberate ellipsis of user content (a long remark, a long group name, a
 * long file name). Such an element ends in an ellipsis (text-overflow) and offers its whole
 * text on hover (a `title` holding all of its words); a translated label never qualifies, it
 * must fit.
 */
export async function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const words = (s: string) => s.replace(/\s+/g, '');
    const describe = (el: Element) => {
      const id = el.getAttribute('data-testid');
      const cls = (el.getAttribute('class') ?? '').split(/\s+/).slice(0, 2).join('.');
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
      return `<${el.tagName.toLowerCase()}${id ? ` data-testid=${id}` : ''} class=${cls}> "${text}"`;
    };
    const out: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) {
      out.push(`the page scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
    }
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      if (el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      if (style.display === 'inline' || style.visibility === 'hidden') continue;
      if (el.scrollWidth <= el.clientWidth + 1) continue;
      const ellipsis = style.textOverflow === 'ellipsis';
      const title = el.getAttribute('title');
      if (ellipsis && title !== null && words(title) === words(el.textContent ?? '')) continue;
      out.push(
        `${describe(el)}: ${el.scrollWidth} > ${el.clientWidth} (overflow-x ${style.overflowX}${
          ellipsis ? ', ellipsis without the whole text as title' : ''
        })`,
      );
    }
    return out;
  });
}
