import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { ChatMessage, MessageType } from '@parley/protocol';
import { test, expect } from '../support/fixtures';
import { REPO_ROOT } from '../support/server';
import { chatRecord, customerPhone, findSession, openChat, openFreshChat } from '../support/chat';
import { apiLogin } from '../support/api';
import { signIn } from '../support/app';

/**
 * Media in the chat: sent from the composer (file button, paste, drop), shown inline (image
 * thumbnail and viewer, audio and video players, file downloads), kept after a reload, and a
 * customer's media received through the CLI.
 */
const MEDIA_DIR = path.join(REPO_ROOT, 'e2e/fixtures/media');
const fixture = (name: string) => path.join(MEDIA_DIR, name);

const FILES = {
  image: 'photo.png',
  audio: 'tone.mp3',
  video: 'clip.webm',
  pdf: 'doc.pdf',
} as const;

/**
 * An Ogg/Opus file whose first page (the Opus header) is real and the rest is noise: the
 * server takes it as audio (its type is read from the header), the browser cannot play it.
 */
function brokenOgg(file: string): string {
  const real = readFileSync(fixture('voice.ogg'));
  const segments = real[26]!;
  let length = 27 + segments;
  for (let i = 0; i < segments; i += 1) length += real[27 + i]!;
  const noise = Buffer.alloc(2048);
  for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 7919 + 13) % 251;
  writeFileSync(file, Buffer.concat([real.subarray(0, length), noise]));
  return file;
}

function mediaBubbles(page: Page, type: MessageType): Locator {
  return page.locator(`[data-testid="message-item"][data-type="${type}"]`);
}

async function pickFiles(page: Page, ...names: string[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('composer-attach').click();
  await (await chooser).setFiles(names.map(fixture));
}

/** The image has loaded (a broken image has no natural width). */
async function expectLoaded(img: Locator) {
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth))
    .toBeGreaterThan(0);
}

/** The browser read the media's metadata: it can play it. */
async function expectPlayable(media: Locator) {
  await expect
    .poll(() => media.evaluate((el: HTMLMediaElement) => el.readyState))
    .toBeGreaterThanOrEqual(1);
}

/** Clicks a file link and returns the name the browser saves it under. */
async function downloadName(page: Page, link: Locator): Promise<string> {
  const download = page.waitForEvent('download');
  await link.click();
  return (await download).suggestedFilename();
}

function stored(list: ChatMessage[], type: MessageType) {
  return list.filter((m) => m.type === type && m.direction === 'out');
}

test('an image sent with the file button shows its thumbnail and opens in the viewer', async ({
  page,
  parley,
  freshSeat,
}) => {
  const { token, session } = await openFreshChat(page, parley, freshSeat);
  await pickFiles(page, FILES.image);

  const image = mediaBubbles(page, 'image');
  await expect(image).toHaveCount(1);
  await expect(image).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
  await expect(image).toHaveAttribute('data-direction', 'out');
  const thumb = image.getByTestId('message-image-thumb');
  await expectLoaded(thumb);

  const [message] = stored(await chatRecord(parley.url, token, session), 'image');
  expect(message?.media?.file_name).toBe(FILES.image);
  expect(message?.media?.size).toBe(statSync(fixture(FILES.image)).size);

  // The viewer shows the full image; Escape closes it, and so does a click on it.
  await image.getByTestId('message-image').click();
  const viewer = page.getByTestId('image-viewer');
  await expect(viewer).toBeVisible();
  await expectLoaded(viewer);
  await expect(viewer).toHaveAttribute('src', message!.media!.url);
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await image.getByTestId('message-image').click();
  await expect(viewer).toBeVisible();
  await viewer.click();
  await expect(viewer).toHaveCount(0);

  await page.reload();
  await openChat(page, session.session_id);
  await expect(mediaBubbles(page, 'image')).toHaveCount(1);
  await expectLoaded(mediaBubbles(page, 'image').getByTestId('message-image-thumb'));
});

test('an audio file, a video and a PDF picked together go as their kinds and play or download', async ({
  page,
  parley,
  freshSeat,
}) => {
  const { token, session } = await openFreshChat(page, parley, freshSeat);
  await pickFiles(page, FILES.audio, FILES.video, FILES.pdf);

  const check = async () => {
    const audio = mediaBubbles(page, 'audio');
    const video = mediaBubbles(page, 'video');
    const pdf = mediaBubbles(page, 'file');
    for (const b of [audio, video, pdf]) {
      await expect(b).toHaveCount(1);
      await expect(b).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
    }
    await expectPlayable(audio.getByTestId('message-audio'));
    await expectPlayable(video.getByTestId('message-video'));
    await expect(audio.getByTestId('media-error')).toHaveCount(0);
    await expect(video.getByTestId('media-error')).toHaveCount(0);
    await expect(pdf.getByTestId('message-file-name')).toHaveText(FILES.pdf);
    const size = statSync(fixture(FILES.pdf)).size;
    await expect(pdf.getByTestId('message-file-size')).toHaveText(
      size < 1024 ? `${size} B` : /\d KB$/,
    );
    // Downloaded under its original name.
    expect(await downloadName(page, pdf.getByTestId('message-file'))).toBe(FILES.pdf);
  };
  await check();

  const list = await chatRecord(parley.url, token, session);
  expect(stored(list, 'audio').map((m) => m.media?.file_name)).toEqual([FILES.audio]);
  expect(stored(list, 'video').map((m) => m.media?.file_name)).toEqual([FILES.video]);
  expect(stored(list, 'file').map((m) => m.media?.file_name)).toEqual([FILES.pdf]);

  await page.reload();
  await openChat(page, session.session_id);
  await check();
});

test('uploaded audio and video show their length before they are played, in one clock', async ({
  page,
  parley,
  freshSeat,
}) => {
  const { session } = await openFreshChat(page, parley, freshSeat);
  // One-second files (fixtures/media/README.md), sent without a recorded duration.
  await pickFiles(page, 'tone.mp3', 'clip.mp4');
  const check = async () => {
    const audio = mediaBubbles(page, 'audio');
    const video = mediaBubbles(page, 'video');
    await expect(audio).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
    await expect(video).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
    await expect(audio.getByTestId('media-duration')).toHaveText('0:01');
    await expect(video.getByTestId('media-duration')).toHaveText('0:01');
    // The audio player shows one clock: not the browser's controls (which add their own).
    await expect(audio.getByTestId('audio-player')).toBeVisible();
    await expect(audio.getByTestId('media-duration')).toHaveCount(1);
    await expect(audio.getByTestId('message-audio')).not.toHaveAttribute('controls');
    await expect(audio.getByTestId('audio-toggle')).toHaveAttribute('data-playing', 'false');
    return audio;
  };
  const audio = await check();

  // Played to its end, it shows its length again.
  await audio.getByTestId('audio-toggle').click();
  await expect
    .poll(() =>
      audio.getByTestId('message-audio').evaluate((a: HTMLAudioElement) => a.played.length),
    )
    .toBeGreaterThan(0);
  await expect(audio.getByTestId('audio-toggle')).toHaveAttribute('data-playing', 'false');
  await expect(audio.getByTestId('media-duration')).toHaveText('0:01');

  await page.reload();
  await openChat(page, session.session_id);
  await check();
});

test('an image pasted into the composer and a file dropped on the chat are sent', async ({
  page,
  parley,
  freshSeat,
}) => {
  const { token, session } = await openFreshChat(page, parley, freshSeat);

  // Paste: the clipboard holds an image (as when one is copied in another application).
  const png = readFileSync(fixture(FILES.image)).toString('base64');
  await page.getByTestId('composer-input').evaluate((el, b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
    el.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, png);
  const image = mediaBubbles(page, 'image');
  await expect(image).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
  await expectLoaded(image.getByTestId('message-image-thumb'));
  await expect(page.getByTestId('composer-input')).toHaveValue('');

  // Drop: a file dragged from the desktop onto the chat pane.
  const notes = 'notes for the customer.txt';
  const data = await page.evaluateHandle((name) => {
    const dt = new DataTransfer();
    dt.items.add(
      new File(['Opening hours: 9-18, Monday to Friday.\n'], name, { type: 'text/plain' }),
    );
    return dt;
  }, notes);
  const pane = page.getByTestId('chat-pane');
  await pane.dispatchEvent('dragenter', { dataTransfer: data });
  await expect(page.getByTestId('drop-overlay')).toBeVisible();
  await pane.dispatchEvent('dragover', { dataTransfer: data });
  await pane.dispatchEvent('drop', { dataTransfer: data });
  await expect(page.getByTestId('drop-overlay')).toHaveCount(0);
  const file = mediaBubbles(page, 'file');
  await expect(file).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
  await expect(file.getByTestId('message-file-name')).toHaveText(notes);

  const list = await chatRecord(parley.url, token, session);
  expect(stored(list, 'image')).toHaveLength(1);
  expect(stored(list, 'file').map((m) => m.media?.file_name)).toEqual([notes]);

  await page.reload();
  await openChat(page, session.session_id);
  await expectLoaded(mediaBubbles(page, 'image').getByTestId('message-image-thumb'));
  await expect(mediaBubbles(page, 'file').getByTestId('message-file-name')).toHaveText(notes);
  expect(await downloadName(page, mediaBubbles(page, 'file').getByTestId('message-file'))).toBe(
    notes,
  );
});

test("a customer's image shows its thumbnail; audio and video that cannot be played say so", async ({
  page,
  parley,
  freshSeat,
}, testInfo) => {
  const customer = customerPhone();
  await parley.cli('chat:receive', freshSeat.phone, customer, 'Look at this');
  const photo = fixture('photo.jpg');
  await parley.cli('chat:receive', freshSeat.phone, customer, '--file', photo, '--kind', 'image');
  const broken = brokenOgg(testInfo.outputPath('voice-message.ogg'));
  await parley.cli('chat:receive', freshSeat.phone, customer, '--file', broken, '--kind', 'audio');
  // A WebM whose header is real and whose frames are noise.
  const video = testInfo.outputPath('holiday.webm');
  const noise = Buffer.alloc(4096, 0x5a);
  writeFileSync(video, Buffer.concat([readFileSync(fixture('clip.webm')).subarray(0, 300), noise]));
  await parley.cli('chat:receive', freshSeat.phone, customer, '--file', video, '--kind', 'video');
  const { token } = await apiLogin(parley.url, freshSeat.account, freshSeat.password);
  const session = await findSession(parley.url, token, customer);
  const list = await chatRecord(parley.url, token, session);
  const inbound = list.find((m) => m.type === 'image');
  expect(inbound?.media?.thumb_url).toBeTruthy();

  await signIn(page, freshSeat.account, freshSeat.password);
  await openChat(page, session.session_id);
  const image = mediaBubbles(page, 'image');
  await expect(image).toHaveAttribute('data-direction', 'in');
  const thumb = image.getByTestId('message-image-thumb');
  await expect(thumb).toHaveAttribute('src', inbound!.media!.thumb_url!);
  await expectLoaded(thumb);

  const audio = mediaBubbles(page, 'audio');
  await expect(audio).toHaveAttribute('data-direction', 'in');
  await expect(audio.getByTestId('media-error')).toHaveText('Audio playback failed');
  await expect(audio.getByTestId('message-file')).toBeVisible();

  const clip = mediaBubbles(page, 'video');
  await expect(clip).toHaveAttribute('data-direction', 'in');
  await expect(clip.getByTestId('media-error')).toHaveText('Video playback failed');
  await expect(clip.getByTestId('message-file-name')).toHaveText('holiday.webm');
});

test('a failed upload can be retried; the message is then sent once', async ({
  page,
  parley,
  freshSeat,
}) => {
  const { token, session } = await openFreshChat(page, parley, freshSeat);
  let uploads = 0;
  await page.route('**/v1/seat/chat/upload', async (route) => {
    uploads += 1;
    if (uploads === 1) await route.abort('connectionreset');
    else await route.continue();
  });
  await pickFiles(page, FILES.pdf);
  const file = mediaBubbles(page, 'file');
  await expect(file).toHaveAttribute('data-status', 'failed');
  await expect(file.getByTestId('upload')).toHaveAttribute('data-upload-state', 'failed');
  await expect(file.getByTestId('message-error')).toHaveText('Server busy');

  await file.getByTestId('message-retry').click();
  await expect(file).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
  await expect(file.getByTestId('message-file-name')).toHaveText(FILES.pdf);
  expect(uploads).toBe(2);
  expect(stored(await chatRecord(parley.url, token, session), 'file')).toHaveLength(1);
});
