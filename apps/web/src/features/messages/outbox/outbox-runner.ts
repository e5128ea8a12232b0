import type { QueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { callApi } from '../../../lib/api-client';
import { ApiError, errorText } from '../../../lib/api-core';
import { i18n, translateCode } from '../../../lib/i18n';
import { readToken } from '../../../lib/storage';
import { realtimeOnline } from '../../../stores/realtime.store';
import { upsertMessage } from '../api/message-cache';
import {
  allLocals,
  localMessages,
  removeLocal,
  updateLocal,
  type LocalMessage,
} from '../local-messages.store';
import { classifySendError, pickReady, retryDelayMs } from './outbox-logic';
import { loadOutbox, saveOutbox } from './outbox-storage';
import { replyConfirm } from './reply-confirm.store';

/**
 * Sends the local inserts of every chat: one request per chat at a time (order kept), each
 * with the message's own client_msg_id (the server stores it once, so sending again after a
 * lost answer never doubles it). While the server cannot be reached the messages wait and
 * are tried again with back-off, on the browser's `online` event, on focus, and as soon as
 * the polled group list answers again. Unsent messages are kept in localStorage per seat.
 */
/**
 * What the runner needs of the chat lists, handed in by the app that composes both (the
 * sessions feature imports this one, so this one does not import it back).
 */
export interface OutboxLists {
  /** A query key of the polled list whose answer means the server is reachable again. */
  isPolledList(queryKey: readonly unknown[]): boolean;
  /** Fetch the chat list anew (a sent message moved its chat). */
  refreshChats(qc: QueryClient): void;
}

const NO_LISTS: OutboxLists = { isPolledList: () => false, refreshChats: () => {} };

class OutboxRunner {
  private seatId: number | null = null;
  private qc: QueryClient | null = null;
  private readonly inFlight = new Set<number>();
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The last failure was the network: new and queued messages show as waiting. */
  private offline = false;
  /** The login expired: nothing more is tried until the next login. */
  private paused = false;
  private cleanups: (() => void)[] = [];
  private lists: OutboxLists = NO_LISTS;

  start(seatId: number, qc: QueryClient, lists: OutboxLists = NO_LISTS): void {
    if (this.seatId === seatId && this.qc === qc) return;
    this.stop();
    this.seatId = seatId;
    this.qc = qc;
    this.lists = lists;
    this.paused = false;
    const stored = loadOutbox(seatId);
    if (stored.length > 0) {
      localMessages.set((m) => {
        const next = { ...m };
        for (const l of stored) {
          const list = next[l.session_id] ?? [];
          if (!list.some((x) => x.client_msg_id === l.client_msg_id)) {
            next[l.session_id] = [...list, l];
          }
        }
        return next;
      });
    }
    const wake = () => this.wake();
    window.addEventListener('online', wake);
    window.addEventListener('focus', wake);
    const onVisible = () => document.visibilityState === 'visible' && this.wake();
    document.addEventListener('visibilitychange', onVisible);
    const unsubscribeStore = localMessages.subscribe(() => {
      this.persist();
      this.kick();
    });
    // A poll that answers again means the server is back.
    const unsubscribeCache = qc.getQueryCache().subscribe((event) => {
      if (
        this.offline &&
        event.type === 'updated' &&
        event.action.type === 'success' &&
        this.lists.isPolledList(event.query.queryKey)
      ) {
        this.wake();
      }
    });
    this.cleanups = [
      () => window.removeEventListener('online', wake),
      () => window.removeEventListener('focus', wake),
      () => document.removeEventListener('visibilitychange', onVisible),
      unsubscribeStore,
      unsubscribeCache,
    ];
    this.persist();
    this.kick();
  }

  stop(): void {
    this.cleanups.forEach((c) => c());
    this.cleanups = [];
    this.clearTimer();
    this.seatId = null;
    this.qc = null;
    this.lists = NO_LISTS;
    this.offline = false;
    this.attempt = 0;
  }

  /** True while messages are held because the server cannot be reached. */
  isOffline(): boolean {
    return this.offline;
  }

  /** Try again now (a trigger that the server may be back). */
  wake(): void {
    if (this.paused) return;
    this.clearTimer();
    this.kick();
  }

  private persist(): void {
    // After logout (token gone) nothing is written back.
    if (this.seatId === null || !readToken()) return;
    saveOutbox(this.seatId, allLocals());
  }

  private kick(): void {
    if (this.seatId === null || this.paused || this.timer) return;
    for (const local of pickReady(allLocals(), this.inFlight)) void this.send(local);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private scheduleRetry(): void {
    if (this.timer || this.paused) return;
    const delay = retryDelayMs(this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, delay);
  }

  private async send(local: LocalMessage): Promise<void> {
    const { session_id: sessionId, client_msg_id: cid } = local;
    const seatId = this.seatId;
    this.inFlight.add(sessionId);
    try {
      const saved = await callApi(
        '/v1/seat/chat/message',
        {
          send_phone: local.send_phone,
          receiver_phone: local.receiver_phone,
          type: local.type,
          content: local.content,
          original_content: local.original_content ?? undefined,
          media_id: local.media?.media_id,
          client_msg_id: cid,
          // A reply (an outbox kept from before replies has none).
          reply_to: local.reply_to ?? undefined,
          // The operator said to send it anyway after another member's reply (409005).
          confirmed: local.confirmed || undefined,
        },
        { notify: false },
      );
      if (seatId !== this.seatId) return;
      this.offline = false;
      this.attempt = 0;
      const qc = this.qc;
      // Into the record, and a chat opened at a search hit once its newest page is loaded.
      if (qc) upsertMessage(qc, saved);
      removeLocal(sessionId, cid);
      // The chat's new place in the lists comes by push (message.created carries the chat);
      // only without a live socket is the list fetched anew.
      if (realtimeOnline.get() !== true) {
        if (qc) this.lists.refreshChats(qc);
      }
    } catch (err) {
      if (seatId !== this.seatId) return;
      this.onFailure(local, err);
    } finally {
      this.inFlight.delete(sessionId);
    }
    this.kick();
  }

  private onFailure(local: LocalMessage, err: unknown): void {
    const failure = classifySendError(err);
    if (failure === 'cancelled') return;
    if (failure === 'offline' || failure === 'expired') {
      this.offline = true;
      this.markWaiting();
      if (failure === 'expired') this.paused = true;
      else this.scheduleRetry();
      return;
    }
    const code = err instanceof ApiError ? err.code : '500001';
    const msg = err instanceof ApiError ? err.message : '';
    updateLocal(local.session_id, local.client_msg_id, { status: 'failed', error: { code, msg } });
    // Another member replied to this customer a moment ago: asked, not reported as a failure.
    if (code === '409005' && err instanceof ApiError) {
      void import('./recent-reply').then(
        ({ recentReplyOf }) => {
          const reply = recentReplyOf(err.data);
          if (reply) {
            replyConfirm.set({
              sessionId: local.session_id,
              clientMsgId: local.client_msg_id,
              reply,
            });
          } else showSendFailure(code, msg);
        },
        () => showSendFailure(code, msg),
      );
      return;
    }
    showSendFailure(code, msg);
  }

  /** Every message not refused and not uploading waits for the server to come back. */
  private markWaiting(): void {
    localMessages.set((m) => {
      let changed = false;
      const next: typeof m = {};
      for (const [id, list] of Object.entries(m)) {
        next[Number(id)] = list.map((l) => {
          if (l.status !== 'pending' || l.upload) return l;
          changed = true;
          return { ...l, status: 'waiting' as const };
        });
      }
      return changed ? next : m;
    });
  }
}

export const outboxRunner = new OutboxRunner();

/** A new local insert starts as waiting when the server is known to be unreachable. */
export function initialLocalStatus(): 'pending' | 'waiting' {
  return outboxRunner.isOffline() ? 'waiting' : 'pending';
}

function showSendFailure(code: string, msg: string): void {
  notifications.show({
    color: 'red',
    title: i18n.t('messages:messageSendFailed'),
    message: errorText(code, msg, translateCode),
  });
}
