import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { AddressBookEntry, SessionItem } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { selectUser, showMissingChat, useConsole } from '../../../stores/console.store';
import { useOpenChat } from './use-open-chat';

/** The query parameter naming the open chat: /home/chat?chat=<session_id>. */
export const CHAT_PARAM = 'chat';

export const chatHref = (sessionId: number) => `/home/chat?${CHAT_PARAM}=${sessionId}`;

function parseChat(value: string | null): number | null {
  if (value === null || !/^[1-9]\d{0,15}$/.test(value)) return null;
  return Number(value);
}

function toSessionItem(entry: AddressBookEntry): SessionItem {
  const { group_name: _name, group_type: _type, ...item } = entry;
  return item;
}

/**
 * Keeps the open chat and the URL in step, so a chat has a link: opening a chat (a click,
 * search, the address book) pushes `?chat=<id>`; a URL that moves by itself (a load, a pasted
 * link, back or forward) opens the chat it names. The server says whether the chat is the
 * seat's (the address book answers only the seat's chats): another seat's or a removed chat
 * shows the not-found state, and nothing of it is fetched.
 */
export function useChatUrl(): void {
  const [params, setParams] = useSearchParams();
  const raw = params.get(CHAT_PARAM);
  const param = parseChat(raw);
  const selected = useConsole((s) => s.selectedUser?.session_id ?? null);
  const missing = useConsole((s) => s.missingChat);
  const openChat = useOpenChat();
  const seen = useRef<{ param: number | null; selected: number | null } | null>(null);
  const asked = useRef(0);

  useEffect(() => {
    const prev = seen.current;
    seen.current = { param, selected };
    if (param === selected) return;
    if (selected === null && missing !== null && missing === param) return;
    const urlMoved = prev === null ? raw !== null : param !== prev.param;
    if (urlMoved) {
      const ask = ++asked.current;
      if (param === null) {
        if (raw === null) selectUser(null);
        else showMissingChat(0);
        return;
      }
      void callApi(
        '/v1/seat/chat/addressBook',
        { session_id: param, page_size: 1 },
        { notify: false },
      )
        .then(async (page) => {
          if (ask !== asked.current) return;
          const entry = page.list[0];
          if (entry) await openChat(toSessionItem(entry));
          else showMissingChat(param);
        })
        .catch(() => undefined);
    } else if (prev === null || selected !== prev.selected) {
      // Closing a chat (back to the list on a phone) replaces its entry: back then leaves.
      setParams(selected === null ? {} : { [CHAT_PARAM]: String(selected) }, {
        replace: prev === null || selected === null,
      });
    }
  }, [param, raw, selected, missing, openChat, setParams]);
}
