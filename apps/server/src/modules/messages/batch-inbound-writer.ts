import type { Db } from '../../db/database.js';
import type { MessageRow, SessionRow } from '../../db/schema.js';
import { newChatRow } from '../sessions/create-chat.js';
import { REPLY_WINDOW } from '../sessions/reply-window.js';
import {
  GroupCommitInboundWriter,
  TakenMeanwhile,
  type BatchWrite,
  type Queued,
  type Written,
} from './group-commit-inbound-writer.js';
import { inboundBatchRepository, type FoundChat } from './inbound-batch.repository.js';
import { writeChannelRows, type InboundOutcome } from './inbound-writer.js';
import { previewOf, toChatMessage } from './messages.presenter.js';

/** A chat of the batch: its messages in order, as found (absent: new) and as written. */
interface BatchChat {
  seatId: number;
  sendPhone: string;
  receiverPhone: string;
  found?: FoundChat;
  /** The batch's messages of this chat, by their index in the batch. */
  members: number[];
}

/**
 * The InboundWriter of PostgreSQL, where each statement is a round trip: a batch of customers'
 * text messages costs a fixed number of statements whatever its size (the chats found, new
 * chats opened, the messages inserted, the chats' counts and previews updated, the keys taken;
 * then the events: the seats' group lists read and every event recorded), where it cost four
 * per message. The rows and events are those InboundWriter writes message by message: each
 * message.created shows its chat as that message left it. Two batches in flight, with
 * different chats. A batch with a media or a reply (their own reads) is written message by
 * message; a batch that fails runs again with a savepoint per message, as on SQLite.
 */
export class BatchInboundWriter extends GroupCommitInboundWriter {
  protected override readonly inFlight: number = 2;

  protected override async writeTogether(trx: Db, batch: Queued[]): Promise<BatchWrite> {
    if (!batch.every(({ unit }) => unit.type === 'text' && !unit.mediaId && !unit.replyTo)) {
      return super.writeTogether(trx, batch);
    }
    const answers: (InboundOutcome | undefined)[] = batch.map(() => undefined);
    // The same key twice in a batch: the later one finds it taken, as it would in turn.
    const keys = new Set<string>();
    const chats = new Map<string, BatchChat>();
    batch.forEach(({ unit, chat }, i) => {
      if (unit.key) {
        const key = `${unit.key.channel}|${unit.key.sendPhone}|${unit.key.externalId}`;
        if (keys.has(key)) return (answers[i] = { kind: 'taken' });
        keys.add(key);
      }
      let c = chats.get(chat);
      if (!c) {
        c = {
          seatId: unit.seatId,
          sendPhone: unit.sendPhone,
          receiverPhone: unit.receiverPhone,
          members: [],
        };
        chats.set(chat, c);
      }
      c.members.push(i);
    });
    const byPhones = (seatId: number, sendPhone: string, receiverPhone: string) =>
      chats.get(`${seatId}|${sendPhone}|${receiverPhone}`);
    for (const found of await inboundBatchRepository.findChats(trx, [...chats.values()])) {
      byPhones(found.seat_id, found.send_phone, found.receiver_phone)!.found = found;
    }
    // The statement judged it by the receive rule's SQL.
    const blocked = (c: BatchChat) => c.found?.is_blocked === true;
    const open = [...chats.values()].filter((c) => !blocked(c));
    const created = await this.openChats(trx, batch, open);

    // The messages, in batch order (a chat's in order).
    const stored = open.flatMap((c) => c.members).sort((a, b) => a - b);
    const chatOf = (i: number) => chats.get(batch[i]!.chat)!;
    const sessionOf = (i: number) => (chatOf(i).found ?? created.get(chatOf(i)))!;
    const rows = await inboundBatchRepository.insertMessages(
      trx,
      stored.map((i) => ({
        sessionId: sessionOf(i).id,
        seatId: batch[i]!.unit.seatId,
        content: batch[i]!.unit.content,
        at: batch[i]!.unit.at,
        externalId: batch[i]!.unit.externalId ?? batch[i]!.unit.key?.externalId ?? null,
      })),
    );
    const rowOf = new Map(stored.map((i, n) => [i, rows[n]!]));
    const updated = await inboundBatchRepository.recordIncoming(
      trx,
      open.map((c) => {
        const last = batch[c.members.at(-1)!]!.unit;
        const named = c.members.map((i) => batch[i]!.unit.customerName).filter((n) => n);
        return {
          id: sessionOf(c.members[0]!).id,
          n: c.members.length,
          at: last.at,
          preview: previewOf(rowOf.get(c.members.at(-1)!)!),
          type: 'text' as const,
          customerName: named.at(-1) ?? null,
          replyUntil: REPLY_WINDOW.after(last.channel, last.at),
        };
      }),
    );
    const taken = [...chats.values()].flatMap((c) =>
      c.members.flatMap((i) => {
        const key = batch[i]!.unit.key;
        return key ? [{ ...key, msgId: rowOf.get(i)?.id ?? null }] : [];
      }),
    );
    // A key another request took meanwhile: the batch runs again, message by message.
    if ((await inboundBatchRepository.take(trx, taken)) !== taken.length) {
      throw new TakenMeanwhile();
    }

    const finalRows = new Map(updated.map((r) => [r.id, r]));
    // Each message's events in batch order.
    const written: (Written | undefined)[] = batch.map(() => undefined);
    for (const c of chats.values()) {
      if (blocked(c)) {
        for (const i of c.members) answers[i] = { kind: 'blocked', seatId: c.seatId };
        continue;
      }
      const chatRows = asEachLeftIt(
        finalRows.get(sessionOf(c.members[0]!).id),
        c.found?.customer_name ?? null,
        c.members.map((i) => ({
          row: rowOf.get(i)!,
          name: batch[i]!.unit.customerName,
          channel: batch[i]!.unit.channel,
        })),
      );
      c.members.forEach((i, j) => {
        const row = rowOf.get(i)!;
        const message = toChatMessage(row, this.media.urls);
        const chatCreated = j === 0 && c.found === undefined;
        answers[i] = {
          kind: 'stored',
          msgId: row.id,
          message,
          seatId: c.seatId,
          sessionId: row.session_id,
          chatCreated,
        };
        const chatRow = chatRows[j];
        // Deleted meanwhile: stored, but no chat to show it in (as message by message).
        if (!chatRow) return;
        written[i] = {
          seatId: c.seatId,
          message,
          row: chatRow,
          chatCreated,
          requestId: batch[i]!.requestId,
        };
      });
    }
    // The channels' own rows, in batch order, once every message has its fate.
    await writeChannelRows(
      trx,
      batch.map(({ unit }, i) => ({ hook: unit.hook, outcome: answers[i]! })),
    );
    return {
      outcomes: answers.map((value) => ({ ok: true, value: value! })),
      written: written.filter((w) => w !== undefined),
    };
  }

  /** The new customers' chats, one statement for all (each seat's Ungrouped read first). */
  private async openChats(
    trx: Db,
    batch: Queued[],
    open: BatchChat[],
  ): Promise<Map<BatchChat, SessionRow>> {
    const created = new Map<BatchChat, SessionRow>();
    const fresh = open.filter((c) => c.found === undefined);
    if (fresh.length === 0) return created;
    const seats = [...new Set(fresh.map((c) => c.seatId))];
    const ungrouped = new Map(
      (await inboundBatchRepository.opensIn(trx, seats)).map((g) => [g.seat_id, g]),
    );
    const rows = await inboundBatchRepository.insertChats(
      trx,
      fresh.map((c) => {
        const group = ungrouped.get(c.seatId);
        if (!group) throw new Error(`seat ${c.seatId} has no ungrouped group`);
        return newChatRow({
          seatId: c.seatId,
          sendPhone: c.sendPhone,
          receiverPhone: c.receiverPhone,
          ungroupedId: group.id,
          at: batch[c.members[0]!]!.unit.at,
        });
      }),
    );
    const byPhones = new Map(
      rows.map((r) => [`${r.seat_id}|${r.send_phone}|${r.receiver_phone}`, r]),
    );
    for (const c of fresh) {
      created.set(c, byPhones.get(`${c.seatId}|${c.sendPhone}|${c.receiverPhone}`)!);
    }
    return created;
  }
}

/**
 * A chat as each of its batch's messages left it, from the chat as the batch left it (`last`;
 * absent: deleted meanwhile): as writing them one by one would have (the chat is locked from
 * the first message on, so only these messages changed it meanwhile). `nameBefore`: the
 * customer's name before the batch.
 */
function asEachLeftIt(
  last: SessionRow | undefined,
  nameBefore: string | null,
  messages: { row: MessageRow; name: string | undefined; channel: string }[],
): (SessionRow | undefined)[] {
  if (!last) return messages.map(() => undefined);
  let name = nameBefore;
  return messages.map(({ row, name: given, channel }, j) => {
    if (given) name = given;
    return {
      ...last,
      un_read_count: last.un_read_count - (messages.length - 1 - j),
      latest_time: row.created_at,
      last_direction: 'in',
      last_preview: previewOf(row),
      last_type: row.type,
      // The last message's row is the chat's as written (its name included).
      customer_name: j === messages.length - 1 ? last.customer_name : name,
      reply_until: REPLY_WINDOW.after(channel, row.created_at),
    };
  });
}
