import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import {
  TAB_CHECK_DELAY_MS,
  TAB_CHECK_INTERVAL_MS,
  TAB_LOCK_KEY,
  checkTab,
  parseLock,
  releaseTab,
} from '../../../lib/tab-lock';
import { TAB_ID, tabChannel, type TakeoverMessage } from '../tab-id';

/**
 * One tab per host: after 2 s and then every 3 s this tab heartbeats the lock, or, when
 * another live tab holds it, shows the notice and goes to /ban-page. "Use here" on the ban
 * page of another tab takes the lock and this tab follows at once (BroadcastChannel and the
 * storage event) or at its next check.
 */
export function useTabGuard(): void {
  const { t } = useTranslation('messages');
  const navigate = useNavigate();
  const location = useLocation();
  const onBanPage = location.pathname === '/ban-page';
  const here = useRef('/home/chat');
  const tRef = useRef(t);

  useEffect(() => {
    here.current = location.pathname + location.search;
    tRef.current = t;
  });

  useEffect(() => {
    if (onBanPage) return;
    const store = window.localStorage;
    let banned = false;
    let started = parseLock(store.getItem(TAB_LOCK_KEY))?.id === TAB_ID;
    let interval: ReturnType<typeof setInterval> | undefined;

    const ban = () => {
      if (banned) return;
      banned = true;
      notifications.show({
        id: 'tab-ban',
        color: 'orange',
        message: tRef.current('appOpenInAnotherTab'),
      });
      navigate('/ban-page', { state: { from: here.current } });
    };
    const tick = () => {
      started = true;
      if (!banned && checkTab(store, TAB_ID, Date.now()) === 'banned') ban();
    };
    const first = setTimeout(() => {
      tick();
      interval = setInterval(tick, TAB_CHECK_INTERVAL_MS);
    }, TAB_CHECK_DELAY_MS);

    const onStorage = (e: StorageEvent) => {
      if (!started || e.key !== TAB_LOCK_KEY) return;
      const lock = parseLock(e.newValue);
      if (lock && lock.id !== TAB_ID) ban();
    };
    const channel = tabChannel();
    const onMessage = (e: MessageEvent<TakeoverMessage>) => {
      if (e.data?.type === 'takeover' && e.data.id !== TAB_ID) ban();
    };
    const onHide = () => releaseTab(store, TAB_ID);

    window.addEventListener('storage', onStorage);
    window.addEventListener('pagehide', onHide);
    channel?.addEventListener('message', onMessage);
    return () => {
      clearTimeout(first);
      clearInterval(interval);
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('pagehide', onHide);
      channel?.removeEventListener('message', onMessage);
    };
  }, [onBanPage, navigate]);
}
