import { readItem } from './storage';

/** The channel of one of the seat's accounts (the login's account list says; undefined: unknown). */
export function accountChannel(sendPhone: string | undefined): string | undefined {
  return readItem('userInfo')?.phone_accounts.find((a) => a.send_phone === sendPhone)?.channel;
}
