import type { Locator, Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { CHAT_URL, signIn, switchLanguage } from '../support/app';
import { tr, UI_LANGS, type UiLang } from '../support/locales';

/**
 * The ban page, the 404 page and the empty states each say what happened (a heading), why (an
 * explanation) and offer the way out, in every language; the way out goes where it says.
 */
async function expectEmptyState(
  region: Locator,
  lang: UiLang,
  english: { title: string; text: string },
  ns: string,
) {
  await expect(region.getByRole('heading')).toHaveText(tr(lang, english.title, ns));
  await expect(
    region.getByTestId(`${await region.getAttribute('data-testid')}-text`),
  ).toContainText(tr(lang, english.text, ns));
}

/** Sets the stored UI language (as the operator dialog does) before the next page load. */
async function storeLanguage(page: Page, lang: UiLang) {
  await page.evaluate((l) => window.localStorage.setItem('language', JSON.stringify(l)), lang);
}

test.describe('pages and empty states say what happened and offer the way out', () => {
  test('the ban page: a heading, the explanation and "Use here" back to the console, in all four languages', async ({
    page,
    freshSeat,
  }) => {
    await signIn(page, freshSeat.account, freshSeat.password);
    for (const lang of UI_LANGS) {
      await storeLanguage(page, lang);
      await page.goto('/ban-page');
      const region = page.getByTestId('ban-page');
      await expect(region.getByRole('heading', { level: 1 })).toHaveText(
        tr(lang, 'Parley is open in another tab', 'common'),
      );
      await expect(page.getByTestId('ban-page-text')).toContainText(
        tr(
          lang,
          'Only one tab per browser can be active, so this one is paused. Continue here and the other tab will be paused instead.',
          'common',
        ),
      );
      const useHere = page.getByTestId('ban-use-here');
      await expect(useHere).toHaveText(tr(lang, 'Use here', 'common'));
      await useHere.click();
      await expect(page).toHaveURL(CHAT_URL);
      await expect(page.getByTestId('group-list')).toBeVisible();
    }
  });

  test('the 404 page: a heading, the address that led nowhere and the way back to the chats, in all four languages', async ({
    page,
    freshSeat,
  }) => {
    await signIn(page, freshSeat.account, freshSeat.password);
    for (const lang of UI_LANGS) {
      await storeLanguage(page, lang);
      const path = `/no/such/page-${lang}`;
      await page.goto(path);
      const region = page.getByTestId('not-found');
      await expect(region.getByRole('heading', { level: 1 })).toHaveText(
        tr(lang, 'Page not found', 'common'),
      );
      const text = tr(
        lang,
        'Nothing is at {{path}}. The link may be mistyped or out of date.',
        'common',
      );
      await expect(page.getByTestId('not-found-text')).toHaveText(text.replace('{{path}}', path));
      await page.getByTestId('not-found-home').click();
      await expect(page).toHaveURL(CHAT_URL);
      await expect(page.getByTestId('group-list')).toBeVisible();
    }
  });

  test('the empty chat pane and the empty user list explain themselves and lead on, in all four languages', async ({
    page,
    freshSeat,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, freshSeat.account, freshSeat.password);
    const dialog = page.getByTestId('add-chat-dialog');
    for (const lang of UI_LANGS) {
      await switchLanguage(page, lang);

      // No chat open: the way out is a new chat.
      await expectEmptyState(
        page.getByTestId('empty-chat'),
        lang,
        {
          title: 'No chat open',
          text: 'Choose a customer in the list to read the conversation and reply, or start a new chat.',
        },
        'chat',
      );
      await page.getByTestId('empty-chat-add').click();
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);

      // A fresh seat's Ungrouped, last 24 hours: the way out is the earlier tab.
      const list = page.getByTestId('user-list-empty');
      await page.getByTestId('time-tab-1').click();
      await expectEmptyState(
        list,
        lang,
        {
          title: 'No chats in the last 24 hours',
          text: 'No customer in this group has written in the last 24 hours.',
        },
        'chat',
      );
      await page.getByTestId('user-list-show-earlier').click();
      await expect(page.getByTestId('time-tab-2')).toHaveAttribute('aria-selected', 'true');
      await expectEmptyState(
        list,
        lang,
        {
          title: 'No earlier chats',
          text: 'This group has no chats older than 24 hours. Start a new chat, or move chats here from their menu.',
        },
        'chat',
      );
      await page.getByTestId('user-list-add').click();
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);

      // Only chats waiting for a reply: the way out shows them all.
      await page
        .getByTestId('reply-filter')
        .getByText(tr(lang, 'Waiting for reply', 'chat'), { exact: true })
        .click();
      await expectEmptyState(
        list,
        lang,
        { title: 'No chat waiting for a reply', text: 'Every chat here has been answered.' },
        'chat',
      );
      await page.getByTestId('user-list-show-all').click();
      await expect(page.getByTestId('reply-filter')).toHaveAttribute('data-value', '0');
      await expect(list.getByRole('heading')).toHaveText(tr(lang, 'No earlier chats', 'chat'));
    }
  });

  test('the empty address book and an empty search lead back, in all four languages', async ({
    page,
    freshSeat,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, freshSeat.account, freshSeat.password);
    for (const lang of UI_LANGS) {
      await switchLanguage(page, lang);
      await page.getByRole('tab', { name: tr(lang, 'Address book', 'common') }).click();
      await expect(page).toHaveURL(/\/home\/addressBook$/);
      const empty = page.getByTestId('address-book-empty');
      await expectEmptyState(
        empty,
        lang,
        {
          title: 'No customers yet',
          text: 'Everyone you chat with is listed here by number, with their remark. Start a chat in the chat console to add the first one.',
        },
        'addressBook',
      );

      // Nothing matches a search: the way out clears it.
      await page.getByTestId('address-book-search').fill('zz-nobody');
      const noMatches = tr(
        lang,
        'No customer matches “{{keyword}}”. Search by part of a name, a number or a remark.',
        'addressBook',
      ).replace('{{keyword}}', 'zz-nobody');
      await expect(empty.getByRole('heading')).toHaveText(tr(lang, 'No matches', 'addressBook'));
      await expect(page.getByTestId('address-book-empty-text')).toHaveText(noMatches);
      await page.getByTestId('address-book-clear').click();
      await expect(page.getByTestId('address-book-search')).toHaveValue('');
      await expect(empty.getByRole('heading')).toHaveText(
        tr(lang, 'No customers yet', 'addressBook'),
      );

      // No customer yet: the way out is the chat console.
      await page.getByTestId('address-book-to-chats').click();
      await expect(page).toHaveURL(CHAT_URL);

      // A search that finds nothing says so, with the word; the search box stays for another.
      await page.getByTestId('message-search-open').click();
      await page.getByTestId('message-search-input').fill('zzqqxx');
      await page.getByTestId('message-search-submit').click();
      const searchEmpty = page.getByTestId('message-search-empty');
      await expect(searchEmpty.getByRole('heading')).toHaveText(
        tr(lang, 'No messages found', 'search'),
      );
      await expect(page.getByTestId('message-search-empty-text')).toHaveText(
        tr(
          lang,
          'No message contains “{{word}}”. Try another word, or a shorter part of it.',
          'search',
        ).replace('{{word}}', 'zzqqxx'),
      );
      await expect(page.getByTestId('message-search-input')).toBeEditable();
      await page.keyboard.press('Escape');
    }
  });
});
