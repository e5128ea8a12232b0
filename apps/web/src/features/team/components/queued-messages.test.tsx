import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatMessage } from '../../../test/builders';
import { loadStrings, renderWithProviders } from '../../../test/render';
import { answerCalls, sentCalls } from '../../../test/server-calls';
import { QueuedMessages } from './queued-messages';

beforeAll(loadStrings);

describe("a queued chat's messages, before taking it", () => {
  it('shows the customer’s messages read-only, as text', async () => {
    answerCalls({
      '/v1/seat/team/chatRecord': {
        data: {
          list: [
            chatMessage(1, { session_id: 4, direction: 'in', content: 'My order #77 never came' }),
            chatMessage(2, {
              session_id: 4,
              direction: 'in',
              content: '<b onmouseover=alert(1)>hi</b>',
            }),
          ],
          has_more: false,
        },
      },
    });
    renderWithProviders(<QueuedMessages sessionId={4} latestTime={1} />);
    const shown = await screen.findAllByTestId('queued-message');
    expect(shown.map((m) => m.querySelector('p')?.textContent)).toEqual([
      'My order #77 never came',
      '<b onmouseover=alert(1)>hi</b>',
    ]);
    expect(document.querySelector('b')).toBeNull();
    // Read-only: nothing to type in.
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(sentCalls('/v1/seat/team/chatRecord').map((c) => c.body.session_id)).toEqual([4]);
  });

  it('says when there is nothing to read', async () => {
    answerCalls({ '/v1/seat/team/chatRecord': { data: { list: [], has_more: false } } });
    renderWithProviders(<QueuedMessages sessionId={4} latestTime={1} />);
    expect(await screen.findByText('No messages yet')).toBeTruthy();
  });
});
