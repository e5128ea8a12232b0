import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SessionItem } from '@parley/protocol';
import { readItem } from '../../../lib/storage';
import { whatsappWindowQuery } from '../api/window-query';

/** Whether the account of `sendPhone` is on WhatsApp (the login's account list says). */
export function isWhatsappAccount(sendPhone: string): boolean {
  return (
    readItem('userInfo')?.phone_accounts.find((a) => a.send_phone === sendPhone)?.channel ===
    'whatsapp'
  );
}

/**
 * A WhatsApp chat's 24-hour window (null data for another channel). `closed`: free text is
 * refused (the customer never wrote, or wrote more than 24 hours ago): only a template goes.
 */
export function useWhatsappWindow(user: SessionItem) {
  const isWhatsapp = isWhatsappAccount(user.send_phone);
  const { data, refetch } = useQuery({
    ...whatsappWindowQuery(user.session_id),
    enabled: isWhatsapp,
  });
  // The customer wrote (the chat's last message is theirs, newer): a new window opened.
  const customerWroteAt = user.last_message?.direction === 'in' ? user.latest_time : null;
  useEffect(() => {
    if (isWhatsapp && customerWroteAt !== null) void refetch();
  }, [isWhatsapp, customerWroteAt, refetch]);
  const window = isWhatsapp ? (data ?? null) : null;
  return { window, closed: window !== null && !window.open };
}
