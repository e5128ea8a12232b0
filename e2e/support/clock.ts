import type { Page, Request } from '@playwright/test';
import type { CallPath } from '@parley/protocol';
import { expect } from './fixtures';

/**
 * Jumps the page's fake clock (`page.clock.install()`) by `jumpMs` to a list's next poll and
 * waits for the answer to a request of `path` made by that jump (and matching `matches`, e.g.
 * its token). A fetch of the list still in flight when the clock jumps restarts the poll's
 * interval when it lands (TanStack Query restarts it on every update of the query), so that
 * jump polls nothing and the next poll is a real 10 s away: the clock is then jumped again.
 */
export async function jumpToPoll(
  page: Page,
  path: CallPath,
  jumpMs: number,
  matches: (request: Request) => boolean = () => true,
): Promise<void> {
  await expect(async () => {
    const polled = page.waitForRequest((r) => new URL(r.url()).pathname === path && matches(r), {
      timeout: 2_000,
    });
    await page.clock.fastForward(jumpMs);
    const request = await polled;
    expect(await request.response()).not.toBeNull();
  }).toPass({ timeout: 20_000 });
}
