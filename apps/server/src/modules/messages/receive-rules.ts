import {
  CUSTOMER_NAME_MAX,
  MESSAGE_TEXT_MAX,
  messageType,
  type MessageType,
} from '@parley/protocol';
import { CHAT_BLOCKED } from '../sessions/chat-blocked.js';

/** Why a customer's message was refused (a label of the metric: a closed list). */
export type RefusalReason =
  /** Not the channel's shape (its zod schema refused it). */
  | 'bad_shape'
  /** A type Parley does not show (WhatsApp's `system`, `unsupported`, ...). */
  | 'unknown_type'
  /** Nothing to show: no text (or only NULs and spaces) and no media. */
  | 'empty'
  /** To an account no seat holds. */
  | 'no_seat'
  /** Refused by a check of its own (a media of the wrong kind, a quote of another chat). */
  | 'invalid';

/** What the door did to a message it kept (a label of the metric: a closed list). */
export type CleanedReason = 'nul_stripped' | 'text_cut' | 'name_cleaned';

/** The parts of a customer's message the rules judge. */
export interface Judged {
  type: string;
  content: string;
  mediaId?: string | undefined;
  customerName?: string | undefined;
}

interface TextRule {
  /** Said in the log and counted when the rule changes or refuses a message. */
  reason: CleanedReason | RefusalReason;
  /** The message breaks the rule. */
  breaks(m: Judged): boolean;
  /** What is then done: the message cleaned, or refused. */
  fate: 'refuse' | ((m: Judged) => Judged);
}

const NUL = '\u0000';
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** The text cut to `max` UTF-16 units (as the seat API counts), never inside a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** The customer's name as a seat sees it: control characters as spaces, at most 128 characters. */
export function cleanName(name: string): string {
  return [
    ...name
      .slice(0, CUSTOMER_NAME_MAX * 4)
      .replace(CONTROL, ' ')
      .trim(),
  ]
    .slice(0, CUSTOMER_NAME_MAX)
    .join('')
    .trim();
}

/**
 * The rules every customer's message is judged by at the inbound door, in order, before either
 * writer sees it (docs/decisions/2026-11-29-one-inbound-door.md): a NUL is stripped (PostgreSQL
 * stores none, and a redelivery would fail on it for ever), a text over MESSAGE_TEXT_MAX (the
 * seat API's cap) is cut, a name is cleaned and cut; an unknown type, or nothing left to show,
 * is refused.
 */
export const TEXT_RULES: readonly TextRule[] = [
  {
    reason: 'unknown_type',
    breaks: (m) => !messageType.safeParse(m.type).success,
    fate: 'refuse',
  },
  {
    reason: 'nul_stripped',
    breaks: (m) => m.content.includes(NUL),
    fate: (m) => ({ ...m, content: m.content.replaceAll(NUL, '') }),
  },
  {
    reason: 'text_cut',
    breaks: (m) => m.content.length > MESSAGE_TEXT_MAX,
    fate: (m) => ({ ...m, content: cutText(m.content, MESSAGE_TEXT_MAX) }),
  },
  {
    reason: 'empty',
    breaks: (m) => m.mediaId === undefined && !m.content.trim(),
    fate: 'refuse',
  },
  {
    reason: 'name_cleaned',
    breaks: (m) => m.customerName !== undefined && m.customerName !== cleanName(m.customerName),
    fate: (m) => ({ ...m, customerName: cleanName(m.customerName!) }),
  },
];

export type Judgement<M extends Judged> =
  { kept: M & { type: MessageType }; cleaned: CleanedReason[] } | { refused: RefusalReason };

/** A message judged by TEXT_RULES: kept (perhaps cleaned, and how), or refused (and why). */
export function judge<M extends Judged>(message: M): Judgement<M> {
  let m: Judged = message;
  const cleaned: CleanedReason[] = [];
  for (const rule of TEXT_RULES) {
    if (!rule.breaks(m)) continue;
    if (rule.fate === 'refuse') return { refused: rule.reason as RefusalReason };
    m = rule.fate(m);
    cleaned.push(rule.reason as CleanedReason);
  }
  return { kept: m as M & { type: MessageType }, cleaned };
}

/**
 * The receive rules, written once, as SEND_RULES are for an operator's send: the message's
 * text (TEXT_RULES, judged at the door for both writers), a blocked chat taking nothing (its
 * key still taken, so a redelivery is a duplicate), a new customer's chat opening in the seat's
 * Ungrouped group, and each message raising its chat's unread count by one. The message by
 * message writer runs the TypeScript, PostgreSQL's batch statements the SQL made from the same
 * entries; test/inbound-writers.test.ts holds both to the same rows, events and counts.
 */
export const RECEIVE_RULES = {
  text: TEXT_RULES,
  blocked: CHAT_BLOCKED,
  /** The group a new customer's chat opens in. */
  opensIn: 'ungrouped' as const,
  unread: {
    /** The unread count after `n` more customer messages. */
    after: (count: number, n: number) => count + n,
    sql: (count: string, n: string) => `${count} + ${n}`,
  },
};
