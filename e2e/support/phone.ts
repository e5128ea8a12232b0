import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/** A phone as Playwright emulates one in Chromium: 390×844, touch, a mobile viewport. */
export const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
} as const;

/** The page scrolls sideways (its content is wider than the screen), or null. */
export async function sidewaysScroll(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = document.scrollingElement ?? document.documentElement;
    return el.scrollWidth > window.innerWidth ? `${el.scrollWidth} > ${window.innerWidth}` : null;
  });
}

/**
 * What a phone user sees of the screen: no sideways scroll, and every open dialog, drawer,
 * menu and popover inside the screen's width (nothing off its edges to reach).
 */
export async function expectFitsScreen(page: Page, where: string): Promise<void> {
  expect.soft(await sidewaysScroll(page), `${where}: sideways scroll`).toBeNull();
  // Polled: a drawer or menu slides in; where it settles is what counts.
  const outside = () =>
    page.evaluate(() => {
      const sel =
        '[role="dialog"], [role="menu"], [role="listbox"], .mantine-Popover-dropdown, .mantine-Menu-dropdown';
      return Array.from(document.querySelectorAll(sel))
        .map((el) => ({ el, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && r.height > 0)
        .filter(({ r }) => r.left < -0.5 || r.right > window.innerWidth + 0.5)
        .map(
          ({ el, r }) =>
            `${el.getAttribute('data-testid') ?? el.getAttribute('role') ?? el.className} ${r.left.toFixed(0)}..${r.right.toFixed(0)}`,
        );
    });
  await expect.soft
    .poll(outside, { message: `${where}: beyond the screen's edges`, timeout: 3_000 })
    .toEqual([]);
}

/** The element's box lies inside the screen (a button a thumb can reach). */
export async function expectOnScreen(page: Page, target: Locator): Promise<void> {
  const box = (await target.boundingBox())!;
  const { width, height } = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(height + 0.5);
}

/**
 * A long press of a finger on the element (touch held without moving), as a phone opens a
 * context menu; touch events through the DevTools protocol, as the emulated touch screen
 * delivers them.
 */
export async function longPress(page: Page, target: Locator, ms = 700): Promise<void> {
  // Where a tap would land once the element is still (a list settles after it renders).
  await target.tap({ trial: true });
  const box = (await target.boundingBox())!;
  const point = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await page.waitForTimeout(ms);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } finally {
    await cdp.detach();
  }
}

/** Signs in (as support/app.ts `signIn`) on a phone: the console opens on the chat list. */
export async function phoneSignIn(page: Page, account: string, password: string): Promise<void> {
  const res = await page.request.post('/v1/seat/chat/login', { data: { account, password } });
  const { data } = (await res.json()) as { data: { token: string } };
  await page.goto(`/auth?token=${encodeURIComponent(data.token)}&redirect=%2Fhome%2Fchat`);
  await expect(page.getByTestId('user-list')).toBeVisible();
}

/** Taps a chat of the list (the recent tab of the open group): the chat screen replaces it. */
export async function tapChat(page: Page, sessionId: number): Promise<void> {
  await page.getByTestId('time-tab-1').tap();
  const row = page.locator(`[data-testid="user-item"][data-session-id="${sessionId}"]`);
  await row.tap();
  await expect(page.getByTestId('composer-input')).toBeVisible();
  await expect(page.getByTestId('user-list')).toBeHidden();
}

/** Back from the chat screen to the list, with the chat screen's own back button. */
export async function tapBack(page: Page): Promise<void> {
  await page.getByTestId('chat-back').tap();
  await expect(page.getByTestId('user-list')).toBeVisible();
  await expect(page.getByTestId('composer-input')).toBeHidden();
}
