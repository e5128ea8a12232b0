import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { SUCCESS_CODE, type ApiEnvelope, type Media } from '@parley/protocol';
import { apiLogin, call } from '../support/api';
import { test, expect, type Seat } from '../support/fixtures';
import { signIn } from '../support/app';
import { chatRecord } from '../support/chat';
import { bubbles, openChatIn, seedChats } from '../support/seed-chats';
import { REPO_ROOT, type ParleyServer } from '../support/server';

const MEDIA_DIR = path.join(REPO_ROOT, 'e2e/fixtures/media');

/** Uploads a corpus file as the seat (the media a material then points to). */
async function upload(baseURL: string, token: string, kind: 'image' | 'audio', name: string) {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', new Blob([readFileSync(path.join(MEDIA_DIR, name))]), name);
  const res = await fetch(`${baseURL}/v1/seat/chat/upload`, {
    method: 'POST',
    headers: { authorization: token },
    body: form,
  });
  const body = (await res.json()) as ApiEnvelope<Media>;
  expect(body.code).toBe(SUCCESS_CODE);
  return body.data;
}

function mediaBubbles(page: Page, type: 'image' | 'audio') {
  return page.locator(`[data-testid="message-item"][data-type="${type}"]`);
}

/** A seat with one chat and materials named "Catalogue ...": a text, an image and an audio. */
async function setUp(page: Page, parley: ParleyServer, seat: Seat) {
  const { chats } = await seedChats(parley, seat, 1);
  const chat = chats[0]!;
  const { token } = await apiLogin(parley.url, seat.account, seat.password);
  const add = (
    kind: 'text' | 'image' | 'audio',
    name: string,
    content: string,
    media_id?: string,
  ) =>
    call(
      parley.url,
      '/v1/seat/chat/quickReplyDoType',
      { type: 'add', kind, name, content, media_id },
      token,
    );
  // Created text first: the server lists the newest first, so the media come first there.
  await add('text', 'Catalogue link', 'The catalogue is at example.com/catalogue');
  const photo = await upload(parley.url, token, 'image', 'photo.png');
  await add('image', 'Catalogue photo', 'Our catalogue cover', photo.media_id);
  const tone = await upload(parley.url, token, 'audio', 'tone.mp3');
  await add('audio', 'Catalogue jingle', 'The catalogue jingle', tone.media_id);

  await signIn(page, seat.account, seat.password);
  await openChatIn(page, chat.group_id, chat.session_id);
  const composer = page.getByTestId('composer-input');
  await composer.click();
  return { chat, token, photo, composer };
}

function slashItems(page: Page) {
  return page.getByTestId('slash-suggestions').getByTestId('slash-item');
}

test('slash: text replies are listed before image and audio materials', async ({
  page,
  parley,
  freshSeat,
}) => {
  const { composer } = await setUp(page, parley, freshSeat);
  await composer.pressSequentially('/catalogue');
  const items = slashItems(page);
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('Catalogue link');
  await expect(items.nth(1)).not.toContainText('Catalogue link');
  await expect(items.nth(2)).not.toContainText('Catalogue link');
});

test('slash: Enter on a media material puts it in the composer, to send or remove', async ({
  page,
  parley,
  freshSeat,
}) => {
  const { chat, token, photo, composer } = await setUp(page, parley, freshSeat);
  const items = slashItems(page);

  // Enter on the image material: it waits in the composer, nothing is sent.
  await composer.pressSequentially('/photo');
  await expect(items).toHaveCount(1);
  await composer.press('Enter');
  const attachment = page.getByTestId('composer-attachment');
  await expect(attachment).toBeVisible();
  await expect(mediaBubbles(page, 'image')).toHaveCount(0);
  await expect(attachment).toHaveAttribute('data-kind', 'image');
  await expect(attachment.getByTestId('composer-attachment-name')).toHaveText('Catalogue photo');
  await expect(composer).toHaveValue('');
  await expect(page.getByTestId('composer-send')).toBeEnabled();

  // Removed: nothing to send.
  await attachment.getByTestId('composer-attachment-remove').click();
  await expect(attachment).toHaveCount(0);
  await expect(page.getByTestId('composer-send')).toBeDisabled();
  await expect(mediaBubbles(page, 'image')).toHaveCount(0);

  // Picked again, with a line of text: Enter sends both, the image first.
  await composer.pressSequentially('/photo');
  await composer.press('Enter');
  await expect(attachment).toBeVisible();
  await composer.pressSequentially('Here is our catalogue');
  await composer.press('Enter');
  await expect(attachment).toHaveCount(0);
  await expect(mediaBubbles(page, 'image')).toHaveAttribute('data-status', 'sent');
  await expect(bubbles(page, 'Here is our catalogue')).toHaveAttribute('data-status', 'sent');

  const record = await chatRecord(parley.url, token, chat);
  const sent = record.filter((m) => m.direction === 'out');
  expect(sent.map((m) => m.type)).toEqual(['image', 'text']);
  expect(sent[0]!.media?.media_id).toBe(photo.media_id);

  // The audio material goes the same way, with the send button.
  await composer.pressSequentially('/jingle');
  await composer.press('Enter');
  await expect(attachment).toHaveAttribute('data-kind', 'audio');
  await expect(mediaBubbles(page, 'audio')).toHaveCount(0);
  await page.getByTestId('composer-send').click();
  await expect(attachment).toHaveCount(0);
  await expect(mediaBubbles(page, 'audio')).toHaveAttribute('data-status', 'sent');
});
