import type { PhoneAccount } from '@parley/protocol';
import type { PhoneAccountRow } from '../../db/schema.js';

export function toPhoneAccount(row: PhoneAccountRow): PhoneAccount {
  return { send_phone: row.send_phone, label: row.label, channel: row.channel };
}
