import type { Locator, Page, Request } from '@playwright/test';
import { TRANSLATION_CACHE_MINUTES } from '@parley/protocol';
import { login, signIn } from '../support/app';
import { expect, type Seat } from '../support/fixtures';
import type { ParleyServer } from '../support/server';
import { bubble, findSession, openChat, receiveChat, seatToken } from '../support/chats';
import { chatRecord } from '../support/chat';
import { call } from '../support/api';
import { translationTest as test } from '../support/translation';

/**
 * Translation with the real Apertium APY engine (Spanish <-> English), started on loopback by
 * support/translation.ts. What Apertium answers for these sentences is fixed by its
 * dictionaries (apertium-eng-spa), so the expected texts are exact.
 */
const ES_EN: Record<string, string> = {
  'Quiero comprar una casa': 'I want to buy a house',
  'El perro come pan': 'The dog eats bread',
  'Buenos días': 'Good morning',
  'Necesito ayuda con mi pedido': 'I need help with my request',
};
const EN_ES = { 'The house is big': 'La casa es grande' };

async function openSettings(page: Page): Promise<Locator> {
  await page.getByTestId('translation-settings-open').click();
  const dialog = page.getByTestId('translation-settings');
  await expect(dialog).toBeVisible();
  return dialog;
}

async function closeSettings(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('translation-settings')).toHaveCount(0);
}

/** Picks a language in a searchable picker by typing part of its name. */
async function pickLanguage(page: Page, picker: Locator, search: string, option: string) {
  await picker.click();
  await picker.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Translation on, Spanish customers, English operator, in the given mode: stored before the
 * console loads (from a page of the same origin without the app: the JSON of /healthz), so
 * the console starts with them as after a reload, without loading it twice.
 */
async function storeSettings(page: Page, mode: 'single' | 'auto_all', extra: object = {}) {
  await page.goto('/healthz');
  await page.evaluate(
    ({ mode, extra }) => {
      const stored = JSON.parse(window.localStorage.getItem('translate') ?? '{}') as object;
      window.localStorage.setItem(
        'translate',
        JSON.stringify({
          ...stored,
          isEnable: true,
          mode,
          sourceLanguage: 'ES',
          targetLanguage: 'EN',
          ...extra,
        }),
      );
    },
    { mode, extra },
  );
}

const translationOf = (page: Page, text: string) =>
  bubble(page, text).getByTestId('message-translation');

async function storedHistory(page: Page) {
  return page.evaluate(
    () =>
      (
        JSON.parse(window.localStorage.getItem('translate') ?? '{}') as {
          hisTranslateMsg?: { session_id: number; msg_id: number; text: string }[];
        }
      ).hisTranslateMsg ?? [],
  );
}

/** A chat of Portuguese messages whose customer language is set to Portuguese (PT). */
async function portugueseChat(parley: ParleyServer, seat: Seat, texts: string[]) {
  const chat = await receiveChat(parley, seat, texts);
  const token = await seatToken(parley.url, seat);
  await call(
    parley.url,
    '/v1/seat/chat/set_customer_language',
    { session_id: chat.session_id, customer_language: 'PT' },
    token,
  );
  return chat;
}

const toasts = (page: Page) => page.locator('.mantine-Notification-root');

const isTranslateCall = (r: Request) => r.url().endsWith('/v1/seat/chat/translate/text_v2');
const sessionOf = (r: Request) => (r.postDataJSON() as { session_id?: number }).session_id;

test.describe('translation (Apertium APY)', () => {
  test('settings show the engine and its pairs; single mode translates one Spanish message into English', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const [first, second] = ['Quiero comprar una casa', 'El perro come pan'] as const;
    const chat = await receiveChat(parley, freshSeat, [first, second]);
    await signIn(page, freshSeat.account, freshSeat.password);

    const dialog = await openSettings(page);
    await expect(dialog.getByTestId('translation-engine')).toHaveText('Apertium');
    await expect(
      dialog.getByTestId('translation-pair').filter({ hasText: 'Spanish (ES) → English (EN)' }),
    ).toHaveCount(1);
    await expect(
      dialog.getByTestId('translation-pair').filter({ hasText: 'English (EN) → Spanish (ES)' }),
    ).toHaveCount(1);
    // The defaults (EN -> ZH-HANS) are not a pair this engine offers: it says so.
    await expect(dialog.getByTestId('translation-pair-unsupported')).toBeVisible();
    await dialog.getByRole('switch').check();
    await pickLanguage(page, dialog.getByTestId('translation-source'), 'span', 'Spanish (ES)');
    await expect(dialog.getByTestId('translation-source')).toHaveValue('Spanish (ES)');
    await pickLanguage(page, dialog.getByTestId('translation-target'), 'engl', 'English (EN)');
    await expect(dialog.getByTestId('translation-target')).toHaveValue('English (EN)');
    await expect(dialog.getByTestId('translation-pair-unsupported')).toHaveCount(0);
    await closeSettings(page);
    await expect(page.getByTestId('translation-settings-open')).toHaveAttribute(
      'data-enabled',
      'true',
    );

    await openChat(page, chat.session_id);
    await bubble(page, first).click({ button: 'right' });
    await page.getByTestId('message-action-translate').click();
    await expect(translationOf(page, first)).toHaveText(ES_EN[first]!);
    // Single mode: only the message asked for.
    await expect(translationOf(page, second)).toHaveCount(0);
    // The settings are stored under `translate`, with the translation in the history.
    const history = await storedHistory(page);
    expect(history).toEqual([
      expect.objectContaining({ session_id: chat.session_id, text: ES_EN[first] }),
    ]);
  });

  test('auto all translates the whole chat on entry and each new incoming message', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const texts = ['Buenos días', 'Quiero comprar una casa', 'El perro come pan'];
    const chat = await receiveChat(parley, freshSeat, texts);
    await storeSettings(page, 'auto_all');
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);
    for (const text of texts) await expect(translationOf(page, text)).toHaveText(ES_EN[text]!);

    // A message arriving while the chat is open (the chat record refreshes) is translated too.
    const late = 'Necesito ayuda con mi pedido';
    await parley.cli('chat:receive', freshSeat.phone, chat.receiver_phone, late);
    await expect(translationOf(page, late)).toHaveText(ES_EN[late]!, { timeout: 25_000 });
  });

  test('opening another chat during auto all aborts the first chat’s translation; nothing lands in the wrong chat', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const chatA = await receiveChat(parley, freshSeat, ['Quiero comprar una casa']);
    const chatB = await receiveChat(parley, freshSeat, ['El perro come pan', 'Buenos días']);
    await storeSettings(page, 'auto_all');
    await signIn(page, freshSeat.account, freshSeat.password);

    // The engine is slow for chat A (its first request is held back), quick for chat B.
    let held: Promise<void> | null = null;
    await page.route('**/v1/seat/chat/translate/text_v2', async (route) => {
      if (sessionOf(route.request()) !== chatA.session_id || held) return route.continue();
      held = new Promise<void>((resolve) => {
        setTimeout(() => {
          route
            .continue()
            .catch(() => undefined)
            .finally(resolve);
        }, 3_000);
      });
      await held;
    });
    const requestA = page.waitForRequest(
      (r) => isTranslateCall(r) && sessionOf(r) === chatA.session_id,
    );
    const failedA = page.waitForEvent(
      'requestfailed',
      (r) => isTranslateCall(r) && sessionOf(r) === chatA.session_id,
    );

    await openChat(page, chatA.session_id);
    await requestA;
    await expect(
      bubble(page, 'Quiero comprar una casa').getByTestId('message-translating'),
    ).toBeVisible();
    await openChat(page, chatB.session_id);
    // Leaving chat A cancelled its request at once.
    expect((await failedA).failure()?.errorText).toMatch(/ABORTED|cancel/i);

    await expect(translationOf(page, 'El perro come pan')).toHaveText('The dog eats bread');
    await expect(translationOf(page, 'Buenos días')).toHaveText('Good morning');
    await held;
    // Chat B shows only its own translations; nothing of chat A was kept anywhere.
    await expect(page.getByTestId('message-translation')).toHaveCount(2);
    await expect(page.getByText('I want to buy a house')).toHaveCount(0);
    const history = await storedHistory(page);
    expect(history.map((e) => e.session_id)).toEqual([chatB.session_id, chatB.session_id]);

    // Back in chat A, its message is translated afresh, under its own bubble.
    await openChat(page, chatA.session_id);
    await expect(translationOf(page, 'Quiero comprar una casa')).toHaveText(
      'I want to buy a house',
    );
    await expect(page.getByTestId('message-translation')).toHaveCount(1);
  });

  test('an English reply goes out in Spanish to a customer whose language is set in the profile', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const chat = await receiveChat(parley, freshSeat, ['Buenos días']);
    // The settings' customer language is French: the chat's own language decides.
    await storeSettings(page, 'single', { sourceLanguage: 'FR' });
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);

    await page.getByTestId('chat-header-profile').click();
    const card = page.getByTestId('profile-card');
    await expect(card.getByTestId('profile-language')).toHaveText('Not set');
    await card.getByTestId('profile-language-edit').click();
    await pickLanguage(page, card.getByTestId('profile-language-select'), 'spa', 'Spanish (ES)');
    await expect(card.getByTestId('profile-language')).toHaveText('Spanish (ES)');
    await page.keyboard.press('Escape');
    // Remembered on the server: another browser would see it.
    const token = await seatToken(parley.url, freshSeat);
    expect((await findSession(parley.url, token, chat.receiver_phone)).customer_language).toBe(
      'ES',
    );

    await page.getByTestId('composer-translate-toggle').click();
    await expect(page.getByTestId('composer-translate-toggle')).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const english = 'The house is big';
    await page.getByTestId('composer-input').fill(english);
    await expect(page.getByTestId('composer-translation-preview')).toHaveText(EN_ES[english]);
    await page.getByTestId('composer-input').press('Enter');

    const sent = bubble(page, EN_ES[english]);
    await expect(sent).toHaveAttribute('data-status', 'sent');
    await expect(sent.getByTestId('message-original')).toHaveText(english);
    await expect(page.getByTestId('composer-input')).toHaveValue('');
    // The customer's record holds the Spanish text; the operator's words are kept beside it.
    const stored = (await chatRecord(parley.url, token, chat)).at(-1);
    expect(stored).toMatchObject({
      direction: 'out',
      content: EN_ES[english],
      original_content: english,
    });
  });

  test('history: expired translations are dropped, the oldest N or all can be cleared, and it survives logout', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const texts = ['Buenos días', 'Quiero comprar una casa', 'El perro come pan'];
    const chat = await receiveChat(parley, freshSeat, texts);
    const token = await seatToken(parley.url, freshSeat);
    const [m1, m2, m3] = await chatRecord(parley.url, token, chat);
    // Three kept translations: one older than the cache time (7200 minutes), two younger.
    const now = Date.now();
    const entry = (msg_id: number, text: string, minutesAgo: number) => ({
      msg_id,
      session_id: chat.session_id,
      text,
      lang: 'EN',
      at: now - minutesAgo * 60_000,
    });
    await storeSettings(page, 'single', {
      hisTranslateMsg: [
        entry(m1!.msg_id, 'EXPIRED', TRANSLATION_CACHE_MINUTES + 1),
        entry(m2!.msg_id, 'older kept', 60),
        entry(m3!.msg_id, 'newer kept', 1),
      ],
    });
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);
    await expect(translationOf(page, texts[1]!)).toHaveText('older kept');
    await expect(translationOf(page, texts[2]!)).toHaveText('newer kept');
    await expect(translationOf(page, texts[0]!)).toHaveCount(0);

    let dialog = await openSettings(page);
    // The cache time reads the same both ways: 5 days = 7200 minutes.
    await expect(dialog.getByTestId('translation-cache-days')).toHaveValue('5');
    await expect(dialog.getByTestId('translation-cache-minutes')).toHaveText('7200 minutes');
    await expect(dialog.getByTestId('translation-history-count')).toHaveText('2 translations kept');
    await dialog.getByTestId('translation-clear-count').fill('1');
    await dialog.getByTestId('translation-clear-oldest').click();
    await expect(dialog.getByTestId('translation-history-count')).toHaveText('1 translation kept');
    await closeSettings(page);
    await expect(translationOf(page, texts[1]!)).toHaveCount(0);
    await expect(translationOf(page, texts[2]!)).toHaveText('newer kept');

    // Logout keeps the translation settings and history.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    // Logging out loads the login page itself: wait for it rather than navigate over it.
    await expect(page.getByTestId('login-username')).toBeVisible();
    await login(page, freshSeat.account, freshSeat.password);
    dialog = await openSettings(page);
    await expect(dialog.getByRole('switch')).toBeChecked();
    await expect(dialog.getByTestId('translation-history-count')).toHaveText('1 translation kept');
    await dialog.getByTestId('translation-clear-all').click();
    await expect(dialog.getByTestId('translation-history-count')).toHaveText('0 translations kept');
    expect(await storedHistory(page)).toEqual([]);
  });

  test('a Portuguese chat in whole-chat mode says once, in the chat, that Apertium cannot translate Portuguese → English; no toast', async ({
    page,
    parley,
    freshSeat,
  }) => {
    // Five customer messages through the CLI (one process each) before and during the test.
    test.setTimeout(150_000);
    const texts = ['Bom dia', 'Quero comprar uma casa', 'O cão come pão'];
    const chat = await portugueseChat(parley, freshSeat, texts);
    const other = await receiveChat(parley, freshSeat, ['Buenos días']);
    await storeSettings(page, 'auto_all');
    await signIn(page, freshSeat.account, freshSeat.password);
    const asked: number[] = [];
    page.on('request', (r) => {
      if (isTranslateCall(r)) asked.push(sessionOf(r) ?? 0);
    });

    await openChat(page, chat.session_id);
    const notice = page.getByTestId('chat-pane').getByTestId('translation-unserved');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Portuguese (PT) → English (EN)');
    // What the configured engine does translate, and what would serve this pair.
    await expect(notice).toContainText('Apertium: English ↔ Spanish');
    await expect(notice).toContainText('DeepL or LibreTranslate');
    await expect(page.getByTestId('translation-unserved')).toHaveCount(1);
    for (const text of texts) await expect(translationOf(page, text)).toHaveCount(0);

    // A new message, leaving and coming back: no further request for this chat and pair.
    const late = 'Preciso de ajuda';
    await parley.cli('chat:receive', freshSeat.phone, chat.receiver_phone, late);
    await expect(bubble(page, late)).toBeVisible({ timeout: 25_000 });
    await openChat(page, other.session_id);
    await expect(translationOf(page, 'Buenos días')).toHaveText('Good morning');
    await expect(page.getByTestId('translation-unserved')).toHaveCount(0);
    await openChat(page, chat.session_id);
    await expect(page.getByTestId('translation-unserved')).toHaveCount(1);
    expect(asked.filter((id) => id === chat.session_id)).toHaveLength(1);
    await expect(toasts(page)).toHaveCount(0);
  });

  test('single mode: translating a Portuguese message shows the same notice in the chat, not a toast', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const text = 'Quero comprar uma casa';
    const chat = await portugueseChat(parley, freshSeat, [text, 'Bom dia']);
    await storeSettings(page, 'single');
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);
    await expect(page.getByTestId('translation-unserved')).toHaveCount(0);

    for (let i = 0; i < 2; i++) {
      await bubble(page, text).click({ button: 'right' });
      await page.getByTestId('message-action-translate').click();
      await expect(page.getByTestId('chat-pane').getByTestId('translation-unserved')).toHaveCount(
        1,
      );
    }
    await expect(page.getByTestId('translation-unserved')).toContainText(
      'Portuguese (PT) → English (EN)',
    );
    await expect(translationOf(page, text)).toHaveCount(0);
    await expect(toasts(page)).toHaveCount(0);
  });
});

test.describe('copy with translation (issue 26)', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('a translated message copies its words and the translation shown under it; an untranslated one offers no such entry', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const [first, second] = ['Buenos días', 'El perro come pan'] as const;
    const chat = await receiveChat(parley, freshSeat, [first, second]);
    await storeSettings(page, 'single');
    await login(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);
    await bubble(page, first).click({ button: 'right' });
    await page.getByTestId('message-action-translate').click();
    await expect(translationOf(page, first)).toHaveText(ES_EN[first]!);

    await bubble(page, second).click({ button: 'right' });
    await expect(page.getByTestId('message-action-copy')).toBeVisible();
    await expect(page.getByTestId('message-action-copy-translation')).toHaveCount(0);
    await page.keyboard.press('Escape');

    await bubble(page, first).click({ button: 'right' });
    await page.getByTestId('message-action-copy-translation').click();
    await expect(page.getByTestId('message-context-menu')).toBeHidden();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${first}\n\n${ES_EN[first]!}`,
    );
  });
});
