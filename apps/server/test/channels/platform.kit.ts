import { expect } from 'vitest';
import { ERROR_CODES, PLATFORM_PATHS } from '@parley/protocol';
import { nextPhone } from '../fixtures.js';
import { platformAt, platformPost, SECRET } from '../platform-helpers.js';
import { startReceiver } from '../platform-receiver.js';
import { CUSTOMER_NAME, type Kit } from './kit.js';

let inboundN = 0;

/** The platform's customer: signed requests of its HTTP API, a local receiver of its deliveries. */
export function kit(): Kit {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  return {
    async start() {
      receiver = await startReceiver(SECRET);
      return { platform: platformAt(receiver.url) };
    },
    stop: () => receiver.close(),
    async bind() {},
    async customerWrites(t, seat, text) {
      const customer = nextPhone('+4481');
      const body = {
        id: `c-${process.pid}-${++inboundN}`,
        account: seat.phones[0],
        customer,
        name: CUSTOMER_NAME,
      };
      const res = await platformPost(
        t,
        PLATFORM_PATHS.message,
        JSON.stringify({ ...body, type: 'text', content: text }),
      );
      expect(res.code, res.raw).toBe('000000');
      return customer;
    },
    async customerReads(t, seat, customer) {
      const got = [...receiver.delivered.values()].filter(
        (m) => m.kind === 'message' && m.customer === customer,
      );
      for (const m of got) {
        if (m.kind !== 'message') continue;
        const receipt = { account: seat.phones[0], msg_id: m.msg_id, status: 'read' };
        const res = await platformPost(t, PLATFORM_PATHS.receipt, JSON.stringify(receipt));
        expect(res.code, res.raw).toBe('000000');
      }
      return got.map((m) => (m.kind === 'message' ? m.content : ''));
    },
    readTick: 'read',
    profileName: null,
    // The platform's credential is the shared secret its requests are signed with.
    badCredentials: (t, seat, customer) =>
      platformPost(
        t,
        PLATFORM_PATHS.message,
        JSON.stringify({
          id: `c-${process.pid}-${++inboundN}`,
          account: seat.phones[0],
          customer,
          type: 'text',
          content: 'signed with another secret',
        }),
        { secret: 'not-the-platform-secret' },
      ),
    refusedWith: ERROR_CODES.PERMISSION_FAILED,
  };
}
