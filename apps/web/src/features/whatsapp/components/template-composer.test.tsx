import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WhatsappTemplate } from '@parley/protocol';
import { chatMessage, sessionItem } from '../../../test/builders';
import { loadStrings, renderWithProviders } from '../../../test/render';
import { answerCalls, sentCalls } from '../../../test/server-calls';
import { TemplateComposer } from './template-composer';

const ORDER: WhatsappTemplate = {
  name: 'order_update',
  language: 'en_US',
  category: 'UTILITY',
  header: { text: 'Order {{1}}', variables: 1 },
  body: 'Hello {{1}}, your order is ready.',
  variables: 1,
  footer: null,
  buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example/t/{{1}}', variables: 1 }],
};
const HELLO: WhatsappTemplate = {
  name: 'hello_world',
  language: 'en_US',
  category: 'MARKETING',
  header: null,
  body: 'Hello from the shop!',
  variables: 0,
  footer: null,
  buttons: [],
};
const chat = sessionItem(7, { send_phone: '+15550001', receiver_phone: '+4479000001' });

beforeAll(loadStrings);

async function choose(name: string) {
  await userEvent.click(screen.getByRole('combobox', { name: 'Template' }));
  await userEvent.click(await screen.findByRole('option', { name }));
}

describe('the template composer', () => {
  it('asks for each placeholder, previews the text, and sends the filled template', async () => {
    answerCalls({
      '/v1/seat/wa/sendTemplate': (body) => ({
        data: chatMessage(91, { session_id: 7, client_msg_id: String(body.client_msg_id) }),
      }),
    });
    renderWithProviders(
      <TemplateComposer user={chat} templates={[ORDER, HELLO]} disabled={false} />,
    );
    const send = screen.getByRole('button', { name: 'Send template' });
    expect((send as HTMLButtonElement).disabled).toBe(true);

    await choose('order_update (en_US)');
    const header = screen.getByRole('textbox', { name: 'Header {{1}}' });
    const text = screen.getByRole('textbox', { name: 'Text {{1}}' });
    const link = screen.getByRole('textbox', { name: 'Link of the "Track" button' });
    await userEvent.type(header, 'A-17');
    await userEvent.type(text, 'Ana');
    // Not every placeholder is filled: nothing can be sent yet.
    expect((send as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(link, 'a17');
    expect(screen.getByText('Hello Ana, your order is ready.')).toBeTruthy();
    expect((send as HTMLButtonElement).disabled).toBe(false);

    await userEvent.click(send);
    await waitFor(() => expect(sentCalls('/v1/seat/wa/sendTemplate')).toHaveLength(1));
    const [sent] = sentCalls('/v1/seat/wa/sendTemplate');
    expect(sent!.body).toMatchObject({
      session_id: 7,
      template: {
        name: 'order_update',
        language: 'en_US',
        header: ['A-17'],
        body: ['Ana'],
        buttons: [{ index: 0, text: 'a17' }],
      },
    });
    // Sent: the form starts again, empty.
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Text {{1}}' })).toBeNull());
    expect((send as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows the server's refusal in the operator's words and keeps what was filled", async () => {
    answerCalls({
      '/v1/seat/wa/sendTemplate': {
        code: '100001',
        msg: 'Parameter error',
        data: { reason: 'template_unknown' },
      },
    });
    renderWithProviders(<TemplateComposer user={chat} templates={[HELLO]} disabled={false} />);
    await choose('hello_world (en_US)');
    await userEvent.click(screen.getByRole('button', { name: 'Send template' }));
    expect(
      await screen.findByText(
        'This template is no longer approved for the number. Choose another one.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Template' })).toHaveProperty(
      'value',
      'hello_world (en_US)',
    );
    // The same form sent again (once the button's 2 s throttle is over) is the same message:
    // one client id per filled form.
    const send = screen.getByRole('button', { name: 'Send template' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    await waitFor(() => expect(send.disabled).toBe(false), { timeout: 5_000 });
    await userEvent.click(send);
    await waitFor(() => expect(sentCalls('/v1/seat/wa/sendTemplate')).toHaveLength(2));
    const [first, second] = sentCalls('/v1/seat/wa/sendTemplate');
    expect(second!.body.client_msg_id).toBe(first!.body.client_msg_id);
  });

  it('says so when the number has no approved template, and offers no send', () => {
    renderWithProviders(<TemplateComposer user={chat} templates={[]} disabled={false} />);
    expect(screen.getByText('This number has no approved templates.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send template' })).toBeNull();
  });
});
