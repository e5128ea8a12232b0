import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { signIn } from '../support/app';
import { receiveChat } from '../support/chats';
import { adminLogin, adminText, createLongestLabel, makeTeamAccount } from '../support/admin';
import { UI_LANGS, type UiLang } from '../support/locales';
import { REPO_ROOT } from '../support/server';

/**
 * PARLEY_SCREENSHOTS=1 saves the 1024 px layouts and the phone's groups drawer in English to
 * docs/screenshots/ (phone.spec.ts saves the phone's chat and list screens, with messages).
 */
const SHOTS = process.env.PARLEY_SCREENSHOTS === '1';
const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  // The chat's messages are on screen, not their skeleton.
  if (name.startsWith('console-chat'))
    await expect(page.getByTestId('message-item').first()).toBeVisible();
  await page.screenshot({ path: path.join(REPO_ROOT, 'docs/screenshots', name) });
};

/**
 * Issue 26: every width from a phone to a desktop works, in every language. One test per
 * language (the four run side by side on the workers), one login per console in it, the
 * language and theme set through their stored items, the viewport resized in the same page.
 */
const WIDTHS = [360, 390, 768, 1024, 1280] as const;
const HEIGHT = 800;
/** Below this width the list and the chat are two screens (home-layout.module.css). */
const PHONE_MAX = 767;

/** Both themes are covered: light in half of the languages, dark in the other half. */
const themeOf = (lang: UiLang) => (lang === 'pt' || lang === 'ru' ? 'dark' : 'light');

async function useLanguage(page: Page, lang: UiLang): Promise<void> {
  await page.evaluate(
    ([l, theme]) => {
      localStorage.setItem('language', JSON.stringify(l));
      localStorage.setItem('theme', JSON.stringify(theme));
    },
    [lang, themeOf(lang)],
  );
}

/** The page scrolls sideways (scrollWidth beyond the viewport). */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => {
    const el = document.scrollingElement ?? document.documentElement;
    return el.scrollWidth > window.innerWidth ? `${el.scrollWidth} > ${window.innerWidth}` : null;
  });

/**
 * Pairs of visible boxes among `selector`'s matches that overlap (by more than half a pixel),
 * described by their test id or text.
 */
const overlaps = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const name = (el: Element) =>
      el.getAttribute('data-testid') ??
      `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    const boxes = Array.from(document.querySelectorAll(sel))
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0);
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (x > 0.5 && y > 0.5) out.push(`${name(a.el)} × ${name(b.el)} (${x.toFixed(0)} px)`);
      }
    }
    return out;
  }, selector);

/** Visible elements among `selector`'s matches whose text is cut (wider than their box). */
const cut = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    return Array.from(document.querySelectorAll<HTMLElement>(sel))
      .filter((el) => el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `"${(el.textContent ?? '').trim()}" ${el.scrollWidth} > ${el.clientWidth}`);
  }, selector);

/** The console header's items, and the composer row's. */
const HEADER_ITEMS =
  '[data-testid="app-header"] [data-header-item], [data-testid="app-header"] [role="tab"]';
const COMPOSER_ITEMS = '[data-testid="composer-row"] > *';

// A language's hundred page loads, and the seat and chat made for it, within one timeout.
test.describe.configure({ timeout: 180_000 });

for (const lang of UI_LANGS) {
  test(`the console fits every width from 360 to 1280 px in ${lang}`, async ({
    page,
    parley,
    freshSeat,
  }) => {
    const chat = await receiveChat(parley, freshSeat, [
      'Olá, tudo bem? Uma pergunta sobre o pedido',
    ]);
    await signIn(page, freshSeat.account, freshSeat.password);

    await useLanguage(page, lang);
    for (const width of WIDTHS) {
      const where = `/home/chat in ${lang} at ${width}px`;
      await page.setViewportSize({ width, height: HEIGHT });
      await page.goto(`/home/chat?chat=${chat.session_id}`);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      const input = page.getByTestId('composer-input');
      await expect(input).toBeVisible();
      expect.soft(await sidewaysScroll(page), `${where}: sideways scroll`).toBeNull();
      expect.soft(await overlaps(page, HEADER_ITEMS), `${where}: header`).toEqual([]);
      expect.soft(await overlaps(page, COMPOSER_ITEMS), `${where}: composer row`).toEqual([]);
      expect
        .soft(await cut(page, `${HEADER_ITEMS}, [data-testid="time-tabs"] [role="tab"]`), where)
        .toEqual([]);
      const inputWidth = (await input.boundingBox())!.width;
      expect
        .soft(inputWidth, `${where}: composer width`)
        .toBeGreaterThanOrEqual(width >= 1024 ? 320 : 200);
      if (lang === 'en' && width === 1024) await shot(page, 'console-chat-1024.png');
      if (width >= 1024) {
        // The seat's name is whole where the header has room for it.
        expect.soft(await cut(page, '[data-testid="user-menu"] span[title]'), where).toEqual([]);
      }

      if (width <= PHONE_MAX) {
        // Two screens: the chat hides the list; back (button, then the browser's) returns.
        await expect(page.getByTestId('user-list')).toBeHidden();
        await page.getByTestId('chat-back').click();
        await expect(page.getByTestId('user-list')).toBeVisible();
        await expect(input).toBeHidden();
        expect.soft(await sidewaysScroll(page), `${where}, the list: sideways scroll`).toBeNull();
        expect.soft(await overlaps(page, HEADER_ITEMS), `${where}, the list: header`).toEqual([]);
        // The groups fold into a drawer opened from the header.
        await expect(page.getByTestId('group-list')).toBeHidden();
        await page.getByTestId('groups-drawer-open').click();
        await expect(page.getByTestId('group-list')).toBeVisible();
        if (lang === 'en' && width === 390) await shot(page, 'console-groups-390.png');
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('group-list')).toBeHidden();
      } else {
        await expect(page.getByTestId('user-list')).toBeVisible();
      }
    }
  });
}

/**
 * Issue 37: the owner's console on a phone (360-430 px), a tablet (768) and a desktop. Its pages
 * never scroll sideways; nothing in its header or a page's heading is cut, overlaps or lies
 * beyond the screen; the live badge is whole; on a phone the menu holds the language and log
 * out, the header the theme; at 1024 and wider the table cells are whole.
 */
const ADMIN_WIDTHS = [360, 390, 430, 768, 1024, 1280] as const;
const ADMIN_HEADER_ITEMS =
  '[data-testid="admin-shell"] header button, [data-testid="admin-live"], [data-testid="admin-title"], header [data-testid="admin-account"]';
/** Labels that must be whole: the header's and the pages' buttons, badges and headings. */
const ADMIN_LABELS =
  '[data-testid="admin-shell"] header *, [data-testid="admin-page-header"] *, [data-testid="admin-shell"] .mantine-Button-label, [data-testid="admin-shell"] .mantine-Badge-label';

/** Visible elements among `selector`'s matches that lie (partly) beyond the viewport's sides. */
const offScreen = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    return Array.from(document.querySelectorAll<HTMLElement>(sel))
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.left < -0.5 || r.right > window.innerWidth + 0.5)
      .map(
        ({ el, r }) =>
          `${el.getAttribute('data-testid') ?? `"${(el.textContent ?? '').trim().slice(0, 30)}"`} ` +
          `x ${r.left.toFixed(0)}-${r.right.toFixed(0)} of ${window.innerWidth}`,
      );
  }, selector);

for (const lang of UI_LANGS) {
  test(`the owner's console fits every width from 360 to 1280 px in ${lang}`, async ({
    page,
    parley,
    freshSeat,
  }) => {
    // A frozen seat of its own, first in the overview's list (by account): its badge is
    // measured in every language and width, whatever other specs froze on this server.
    const frozen = `a_frozen_${lang.replace('-', '').toLowerCase()}_${Date.now().toString(36)}`;
    await parley.cli('seat:create', frozen, '--password', 'frozen-seat-pw');
    await parley.cli('seat:freeze', frozen);
    // A team account first in the accounts' list (by number), and the longest label: the
    // accounts page at its widest, whatever other specs left on this server.
    const teamPhone = `+1000${String(Date.now()).slice(-9)}`;
    await parley.cli('account:add', teamPhone);
    await parley.cli('account:assign', teamPhone, freshSeat.account);
    await makeTeamAccount(parley.url, teamPhone);
    await createLongestLabel(parley.url);
    await page.setViewportSize({ width: 1280, height: HEIGHT });
    await adminLogin(page);
    await useLanguage(page, lang);

    for (const width of ADMIN_WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      for (const section of ['overview', 'seats', 'accounts', 'labels', 'audit'] as const) {
        const where = `/admin/${section} in ${lang} at ${width}px`;
        await page.goto(`/admin/${section}`);
        await expect(page.getByTestId('admin-shell')).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        if (section === 'labels') {
          await expect(page.getByTestId('label-row').first()).toBeVisible();
        } else {
          await expect(page.locator('table th').first()).toBeVisible();
        }
        if (section === 'accounts') {
          // The team's card, and the table below it not squeezed to nothing by what follows
          // it (labels were once put under it: the table, flex 1, was left 0 px high).
          await expect(page.getByTestId(`team-card-${teamPhone}`)).toBeVisible();
          const table = await page.getByTestId('account-table').boundingBox();
          expect(table?.height ?? 0, where).toBeGreaterThan(80);
        }
        if (section === 'overview') {
          const row = page.getByTestId(`overview-seat-${frozen}`);
          await expect(
            row.getByText(adminText(lang, 'seats.status.frozen'), { exact: true }),
          ).toBeVisible();
        }
        // The badge says what it is, whole (not a dot), once the socket is up.
        const badge = page.getByTestId('admin-live');
        await expect(badge).toHaveAttribute('data-live', 'true');
        await expect(badge).toHaveText(adminText(lang, 'live.on'), { ignoreCase: true });
        expect.soft(await sidewaysScroll(page), `${where}: sideways scroll`).toBeNull();
        expect.soft(await cut(page, ADMIN_LABELS), `${where}: cut`).toEqual([]);
        expect.soft(await overlaps(page, ADMIN_HEADER_ITEMS), `${where}: header`).toEqual([]);
        expect
          .soft(
            await offScreen(page, `${ADMIN_HEADER_ITEMS}, [data-testid="admin-page-header"] *`),
            where,
          )
          .toEqual([]);
        await expect(page.getByTestId('theme-toggle')).toBeVisible();
        if (lang === 'en' && width === 1024 && section === 'seats')
          await shot(page, 'admin-seats-1024.png');
        if (width >= 1024) {
          expect.soft(await cut(page, 'table th, table td'), `${where}: cut cells`).toEqual([]);
        }
      }

      const logout = page.getByTestId('admin-logout');
      if (width > PHONE_MAX) {
        await expect(logout).toBeVisible();
        await expect(page.getByTestId('language-switcher')).toBeVisible();
        continue;
      }
      // A phone: the menu holds the sections, the account, the language and log out.
      const where = `the menu in ${lang} at ${width}px`;
      // Not in the header: only in the menu, which lies beside the screen until opened.
      await expect(page.locator('header [data-testid="admin-logout"]')).toHaveCount(0);
      await page.getByTestId('admin-nav-toggle').click();
      await expect(page.getByTestId('admin-nav-seats')).toBeVisible();
      // The menu slides in: measured once its sections have arrived, not while under way.
      for (const item of [logout, page.getByTestId('admin-nav-overview')]) {
        await expect
          .poll(async () => (await item.boundingBox())?.x ?? -1)
          .toBeGreaterThanOrEqual(0);
      }
      await expect(logout).toBeVisible();
      await expect(logout).toHaveText(adminText(lang, 'logout'));
      await expect(page.getByTestId('language-switcher')).toBeVisible();
      expect.soft(await cut(page, 'nav *'), `${where}: cut`).toEqual([]);
      expect.soft(await offScreen(page, 'nav a, nav button'), where).toEqual([]);
      expect.soft(await sidewaysScroll(page), `${where}: sideways scroll`).toBeNull();
      if (lang === 'en' && width === 390) await shot(page, 'admin-menu-390.png');
      await page.getByTestId('admin-nav-toggle').click();
      await expect.poll(async () => (await logout.boundingBox())?.x ?? -1).toBeLessThan(0);
    }

    // Log out from the phone's menu.
    await page.setViewportSize({ width: 360, height: HEIGHT });
    await page.getByTestId('admin-nav-toggle').click();
    await expect
      .poll(async () => (await page.getByTestId('admin-logout').boundingBox())?.x ?? -1)
      .toBeGreaterThanOrEqual(0);
    await page.getByTestId('admin-logout').click();
    await expect(page).toHaveURL(/\/admin\/login$/);
  });
}
