import { describe, expect, it } from 'vitest';
import {
  AVATAR_COLORS,
  avatarColorOf,
  customerDisplayName,
  customerNameOrNull,
  initialsOf,
} from './customer-name';

const c = (remark: string, customer_name: string | null, receiver_phone = '+15550001234') => ({
  remark,
  customer_name,
  receiver_phone,
  send_phone: '+15550100001',
});

describe('customerDisplayName', () => {
  it('is the remark, else the channel’s name, else the number', () => {
    expect(customerDisplayName(c('VIP', 'Anna Karenina'))).toBe('VIP');
    expect(customerDisplayName(c('', 'Anna Karenina'))).toBe('Anna Karenina');
    expect(customerDisplayName(c('  ', null))).toBe('+15550001234');
    expect(customerNameOrNull(c('', null))).toBeNull();
  });
});

describe('initialsOf', () => {
  it('takes the first and last words’ first letters, in any script', () => {
    expect(initialsOf(c('', 'anna maria karenina'))).toBe('AK');
    expect(initialsOf(c('', 'Олег'))).toBe('О');
    expect(initialsOf(c('', '王小明'))).toBe('王');
    expect(initialsOf(c('', '@only_user'))).toBe('O');
    expect(initialsOf(c('', '(Bob) - Smith'))).toBe('BS');
  });
  it('is the number’s last two digits for a customer without a name', () => {
    expect(initialsOf(c('', null))).toBe('34');
  });
});

describe('avatarColorOf', () => {
  it('is stable per customer and one of the palette', () => {
    const a = avatarColorOf(c('', null, '+15550001234'));
    expect(avatarColorOf(c('x', 'y', '+15550001234'))).toBe(a);
    expect(AVATAR_COLORS).toContain(a);
    const many = new Set(
      Array.from({ length: 40 }, (_, i) => avatarColorOf(c('', null, `+1555000${1000 + i}`))),
    );
    expect(many.size).toBeGreaterThan(6);
  });
});
