import type { MessageStatus } from '@parley/protocol';
import type { Config } from '../../src/config.js';
import type { SeatFixture } from '../fixtures.js';
import type { TestApp } from '../helper.js';

/**
 * How the channel contract (test/channel-contract.test.ts) plays a channel's customer: each
 * channel's kit is `test/channels/<name>.kit.ts`, exporting `kit`, a function making a fresh
 * one. The contract finds the kits by their file names; a channel of the protocol without one
 * fails its test.
 */
export interface Kit {
  /** The app's settings for this channel (its external side started). */
  start(): Promise<Partial<Config>>;
  stop(): Promise<void>;
  /** Puts the seat's account on the channel. */
  bind(t: TestApp, seat: SeatFixture): Promise<void>;
  /** A new customer writes `text`: answers the customer's number. */
  customerWrites(t: TestApp, seat: SeatFixture, text: string): Promise<string>;
  /** The texts the customer has received; reading them sends the channel's receipt. */
  customerReads(t: TestApp, seat: SeatFixture, customer: string): Promise<string[]>;
  /** The tick an operator's message shows once the customer has read it. */
  readTick: MessageStatus;
  /**
   * The first name the console's profile read (the chat's profile card) shows for the kit's
   * customer; null: the channel knows the customer by number only.
   */
  profileName: string | null;
  /**
   * Credentials the channel refuses, as a client presents them: a request signed with another
   * secret, another browser's key, a bot token Telegram does not know. `customer` has a chat.
   */
  badCredentials(t: TestApp, seat: SeatFixture, customer: string): Promise<{ code: string }>;
  /** The code of that refusal (the spec's: 400003 permission, 100001 a refused field). */
  refusedWith: string;
}

/** The name every kit's customer writes under: the channel's name for them reaches the chat. */
export const CUSTOMER_NAME = 'Olga';
