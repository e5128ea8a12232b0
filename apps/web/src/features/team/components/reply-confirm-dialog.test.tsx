import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { localMessage } from '../../../test/builders';
import { loadStrings, renderWithProviders } from '../../../test/render';
import { addLocal, findLocal, localMessages } from '../../messages/local-messages.store';
import { replyConfirm } from '../../messages/outbox/reply-confirm.store';
import { ReplyConfirmHost } from './reply-confirm-dialog';

beforeAll(loadStrings);
afterEach(() => {
  replyConfirm.set(null);
  localMessages.set({});
});

/** A reply the server held back (409005) four seconds after Ana's. */
function heldBack() {
  addLocal(
    localMessage(9, {
      client_msg_id: 'held-back-1',
      status: 'failed',
      error: { code: '409005', msg: 'Another member replied to this customer a moment ago' },
    }),
  );
  replyConfirm.set({
    sessionId: 9,
    clientMsgId: 'held-back-1',
    reply: { seat_id: 2, nickname: 'Ana', at: Date.now() - 4_000 },
  });
}

describe('a reply right after another member’s', () => {
  it('asks "Ana replied 4 s ago", and sends it again confirmed', async () => {
    renderWithProviders(<ReplyConfirmHost />);
    act(heldBack);
    const text = await screen.findByTestId('reply-confirm-text');
    expect(text.textContent).toBe('Ana replied to this customer 4 s ago. Send anyway?');
    await userEvent.click(screen.getByRole('button', { name: 'Send anyway' }));
    await waitFor(() => expect(screen.queryByTestId('reply-confirm-text')).toBeNull());
    expect(findLocal(9, 'held-back-1')).toMatchObject({
      status: 'pending',
      confirmed: true,
      error: null,
    });
  });

  it('leaves the reply unsent when the operator declines', async () => {
    renderWithProviders(<ReplyConfirmHost />);
    act(heldBack);
    await userEvent.click(await screen.findByRole('button', { name: 'Don’t send' }));
    await waitFor(() => expect(screen.queryByTestId('reply-confirm-text')).toBeNull());
    expect(findLocal(9, 'held-back-1')).toMatchObject({ status: 'failed' });
    expect(findLocal(9, 'held-back-1')?.confirmed).toBeUndefined();
  });
});
