import { test, expect } from '../support/fixtures';
import { toast } from '../support/app';
import { chatRecord, openChat, openFreshChat } from '../support/chat';

/**
 * Voice notes recorded in the browser with Chromium's fake microphone
 * (`--use-fake-device-for-media-stream` in the project config).
 */
test.describe('with the microphone allowed', () => {
  test.use({ permissions: ['microphone'] });

  test('a voice note is recorded, sent and arrives as an audio message with its duration', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const { token, session } = await openFreshChat(page, parley, freshSeat);
    await page.getByTestId('composer-mic').click();
    const recording = page.getByTestId('voice-recording');
    await expect(recording).toBeVisible();
    // The elapsed time runs while recording.
    await expect(recording.getByTestId('voice-elapsed')).toHaveText('0:02', { timeout: 10_000 });
    await recording.getByTestId('voice-send').click();
    await expect(recording).toHaveCount(0);
    await expect(page.getByTestId('composer-mic')).toBeVisible();

    const note = page.locator('[data-testid="message-item"][data-type="audio"]');
    await expect(note).toHaveCount(1);
    await expect(note).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
    await expect(note.getByTestId('audio-player')).toBeVisible();
    await expect(note.getByTestId('media-error')).toHaveCount(0);

    const stored = (await chatRecord(parley.url, token, session)).filter((m) => m.type === 'audio');
    expect(stored).toHaveLength(1);
    const media = stored[0]!.media!;
    expect(media.mime).toMatch(/^audio\/(webm|ogg)/);
    expect(media.duration_ms).toBeGreaterThanOrEqual(2_000);
    expect(media.size).toBeGreaterThan(0);
    // One clock: the note's length (the browser's own controls would show a second one).
    await expect(note.getByTestId('media-duration')).toHaveText(/^0:0[2-9]$/);
    await expect(note.getByTestId('media-duration')).toHaveCount(1);
    await expect(note.getByTestId('message-audio')).not.toHaveAttribute('controls');

    // The browser can play it back (its metadata loads).
    await expect
      .poll(() => note.getByTestId('message-audio').evaluate((a: HTMLAudioElement) => a.readyState))
      .toBeGreaterThanOrEqual(1);

    await page.reload();
    await openChat(page, session.session_id);
    await expect(page.locator('[data-testid="message-item"][data-type="audio"]')).toHaveCount(1);
  });

  test('a recording can be cancelled: nothing is sent', async ({ page, parley, freshSeat }) => {
    const { token, session } = await openFreshChat(page, parley, freshSeat);
    await page.getByTestId('composer-mic').click();
    const recording = page.getByTestId('voice-recording');
    // The timer runs (any whole second past zero: a loaded machine may skip the first).
    await expect(recording.getByTestId('voice-elapsed')).toHaveText(/^0:(0[1-9]|[1-5]\d)$/, {
      timeout: 10_000,
    });
    await recording.getByTestId('voice-cancel').click();
    await expect(recording).toHaveCount(0);
    await expect(page.locator('[data-testid="message-item"][data-type="audio"]')).toHaveCount(0);
    expect((await chatRecord(parley.url, token, session)).map((m) => m.type)).toEqual(['text']);
  });
});

test.describe('with the microphone denied', () => {
  test('a denied microphone says so, in the UI language', async ({ page, parley, freshSeat }) => {
    await openFreshChat(page, parley, freshSeat);
    await page.getByTestId('composer-mic').click();
    await expect(
      toast(
        page,
        "Microphone access was denied. Allow it in the browser's site settings to record voice notes.",
      ),
    ).toBeVisible();
    await expect(page.getByTestId('voice-recording')).toHaveCount(0);
    await expect(page.getByTestId('composer-mic')).toBeEnabled();
  });
});
