import { expect } from 'vitest';
import { ERROR_CODES } from '@parley/protocol';
import { nextPhone } from '../fixtures.js';
import { browserKey, sandboxAs } from '../sandbox-helpers.js';
import { CUSTOMER_NAME, type Kit } from './kit.js';

/** The sandbox's customer: the sandbox page's calls, under a browser's key. */
export function kit(): Kit {
  const key = browserKey();
  return {
    start: async () => ({ sandbox: 'on' }),
    stop: async () => {},
    async bind(t, seat) {
      await t.services.accounts.setPlainChannel(seat.phones[0]!, 'sandbox');
    },
    async customerWrites(t, seat, text) {
      const customer = nextPhone('+4482');
      const res = await sandboxAs(t, key).send({
        account: seat.phones[0],
        customer,
        name: CUSTOMER_NAME,
        content: text,
      });
      expect(res.code).toBe('000000');
      return customer;
    },
    async customerReads(t, seat, customer) {
      // The page shows the chat: 'delivered' and, in view, 'read' go back.
      const res = await sandboxAs(t, key).chat(seat.phones[0]!, customer, true);
      expect(res.code).toBe('000000');
      return (res.data?.list ?? []).filter((e) => e.direction === 'out').map((e) => e.content);
    },
    readTick: 'read',
    profileName: null,
    // The sandbox's credential is the browser key its customer number was first used with.
    badCredentials: (t, seat, customer) =>
      sandboxAs(t, browserKey()).send({
        account: seat.phones[0],
        customer,
        content: 'another browser writing as the customer',
      }),
    refusedWith: ERROR_CODES.PERMISSION_FAILED,
  };
}
