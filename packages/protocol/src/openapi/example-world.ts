import type { Media } from '../entities.js';

/**
 * What the API examples name: a seat, its phone account, chats, groups, messages, a material,
 * an upload and a batch. The document shows the examples written over `SAMPLE_WORLD`; the
 * server's contract test makes a real world the real way (the CLI's services, signed platform
 * messages, the calls themselves) and replays the same examples over it.
 */
export interface ExampleWorld {
  account: string;
  password: string;
  nickname: string;
  seatId: number;
  /** The login the examples use, and a second one (logout ends it). */
  token: string;
  spareToken: string;
  /** When `token` stops working (epoch ms). */
  expiresAt: number;
  /** The seat's phone account and its label. */
  phone: string;
  phoneLabel: string;
  /** A customer with a chat, and a number without one (addSession). */
  customer: string;
  newCustomer: string;
  /** Epoch ms around which the sample answers are dated. */
  now: number;
  sessions: {
    /** The customer's chat, with their messages and an operator's reply. */
    main: number;
    /** A chat the examples delete, one they block, one already blocked. */
    toDelete: number;
    toBlock: number;
    blocked: number;
    /** Another seat's chat: naming it is refused like a missing one. */
    otherSeat: number;
  };
  /** The customers of those chats. */
  customers: { toDelete: string; toBlock: string; blocked: string };
  groups: {
    ungrouped: number;
    blocked: number;
    tgLinkPushed: number;
    /** A custom group (renamed by an example) and one the examples delete. */
    custom: number;
    customName: string;
    toDelete: number;
    toDeleteName: string;
  };
  messages: {
    /** The customer's message and the operator's reply in the main chat. */
    inbound: number;
    inboundText: string;
    outbound: number;
    outboundClientId: string;
  };
  /** An uploaded image (JPEG) and its signed URLs. */
  media: { id: string; url: string; thumbUrl: string; size: number; width: number; height: number };
  quickReplies: { text: number; toDelete: number };
  /** A batch reply sent before. */
  batchId: string;
  /** A customer message the platform delivered (its id on the platform). */
  platformMessageId: string;
  /** The administrator's side (the admin calls' examples). */
  admin: {
    account: string;
    password: string;
    adminId: number;
    /** The admin login the examples use, and a second one (logout ends it). */
    token: string;
    spareToken: string;
    expiresAt: number;
    /** A seat the examples rename, freeze and give a new password; and its phone account. */
    seatId: number;
    seatAccount: string;
    accountId: number;
    accountPhone: string;
    /** The other seat (bob), where the examples move that account. */
    otherSeatId: number;
    /** A seat account and a number the examples create. */
    newSeatAccount: string;
    newPhone: string;
    /** A delivery that failed (the retry example). */
    failedOutboxId: number;
    failedMsgId: number;
  };
}

const NOW = 1_795_000_000_000;

/** The world the published examples are written over. */
export const SAMPLE_WORLD: ExampleWorld = {
  account: 'alice',
  password: 'correct-horse-1',
  nickname: 'alice',
  seatId: 1,
  token: 'q2V9o0y8c5Vb1aTn8mS1x4Hh3uJkLw7dEfRgPzA6BcY',
  spareToken: 'Zk4Wm2rT9bQx7vN1sYc3pLh8dGf5jKa0eUoIiR6tHwE',
  expiresAt: NOW + 168 * 3600_000,
  phone: '+15550100001',
  phoneLabel: 'US support line',
  customer: '+34600123456',
  newCustomer: '+447700900123',
  now: NOW,
  sessions: { main: 1, toDelete: 2, toBlock: 3, blocked: 4, otherSeat: 5 },
  customers: { toDelete: '+34600123457', toBlock: '+34600123458', blocked: '+34600123459' },
  groups: {
    ungrouped: 1,
    blocked: 2,
    tgLinkPushed: 3,
    custom: 4,
    customName: 'Wholesale',
    toDelete: 5,
    toDeleteName: 'Old leads',
  },
  messages: {
    inbound: 1,
    inboundText: 'Hola, quiero saber el estado de mi pedido',
    outbound: 5,
    outboundClientId: 'c-7f3a9b2e41',
  },
  media: {
    id: 'r8Jw0aVq3nXk5LmT2yBd9g',
    url: '/v1/seat/media/r8Jw0aVq3nXk5LmT2yBd9g?seat=1&exp=1795132799&sig=3b1f0c9e7d2a4b6c8e0f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b1c3d',
    thumbUrl:
      '/v1/seat/media/r8Jw0aVq3nXk5LmT2yBd9g/thumb?seat=1&exp=1795132799&sig=3b1f0c9e7d2a4b6c8e0f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b1c3d',
    size: 48213,
    width: 640,
    height: 480,
  },
  quickReplies: { text: 1, toDelete: 2 },
  batchId: 'b-2d81f0c4a9',
  platformMessageId: 'wamid-1001',
  admin: {
    account: 'owner',
    password: 'owner-password-1',
    adminId: 1,
    token: 'Ad9Pq2Lm7Xs4Tn1Vb8Ck3Jh6Gf0Ry5Eu2Wi9Oa4Sz7D',
    spareToken: 'Bq7Xm1Nc4Vd8Rf2Tg6Yh0Uj3Ik5Ol9Pz2Sa6Dx8Cw1E',
    expiresAt: NOW + 168 * 3600_000,
    seatId: 3,
    seatAccount: 'erin',
    accountId: 3,
    accountPhone: '+15550100003',
    otherSeatId: 2,
    newSeatAccount: 'carol',
    newPhone: '+15550100004',
    failedOutboxId: 2,
    failedMsgId: 9,
  },
};

/** The world's uploaded image as answers show it. */
export function exampleImage(w: ExampleWorld): Media {
  return {
    media_id: w.media.id,
    url: w.media.url,
    thumb_url: w.media.thumbUrl,
    mime: 'image/jpeg',
    size: w.media.size,
    file_name: 'photo.jpg',
    duration_ms: null,
    width: w.media.width,
    height: w.media.height,
  };
}
