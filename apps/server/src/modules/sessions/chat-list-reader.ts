import {
  RECENT_WINDOW_MS,
  epochMs,
  id,
  type CallRequest,
  type CallResponse,
  type Label,
} from '@parley/protocol';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import type { SessionRow } from '../../db/schema.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import type { KnownVersions } from '../../lib/known-versions.js';
import { ListCache, SerializedAnswer } from '../../lib/list-cache.js';
import { notFound } from '../../lib/app-error.js';
import type { MediaUrls } from '../media/media-urls.js';
import { labelsRepository } from '../labels/labels.repository.js';
import { listVersionsRepository } from './list-versions.repository.js';
import { pageInOneRepository } from './page-in-one.repository.js';
import { toSessionItem } from './sessions.presenter.js';
import { sessionsRepository, type SessionFilter, type SessionKey } from './sessions.repository.js';

type GroupInfoInput = CallRequest<'/v1/seat/chat/getGroupInfo'>;
type GroupInfoAnswer = CallResponse<'/v1/seat/chat/getGroupInfo'>;

/**
 * getGroupInfo's page, its total and the seat's list version: how they are read on this
 * database. One implementation per database, chosen once where the services are wired
 * (services.ts), so SessionsService never asks which one it runs on.
 */
export interface ChatListReader {
  /**
   * getGroupInfo's answer (not a keyword search, nor a label's filter), serialised: from the bytes of the last time
   * while the seat's list version is unchanged and no chat of the list has left the last 24
   * hours, else read.
   */
  answer(seatId: number, input: GroupInfoInput): Promise<SerializedAnswer>;
}

/** The user list's keyset: [is_top, latest_time, session_id]. */
const sessionKey = z.tuple([z.number().int().min(0).max(1), epochMs, id]);

/** getGroupInfo's filter and cursor, as of `now`. */
function listRead(
  seatId: number,
  input: GroupInfoInput,
  now: number,
): { filter: SessionFilter; after: SessionKey | null } {
  const after = input.cursor ? decodeCursor(input.cursor, sessionKey) : null;
  return {
    after: after && { isTop: after[0], latestTime: after[1], id: after[2] },
    filter: {
      seatId,
      groupId: input.group_id,
      userTimeType: input.user_time_type,
      recentSince: now - RECENT_WINDOW_MS,
      waitingOnly: input.reply === 1,
      keyword: input.keyword || undefined,
      labelId: input.label_id,
    },
  };
}

/**
 * The answer of a page read with one row more than asked (is there a next page), each chat with
 * its labels: one read for the page (labels and chat_labels move the list version, so a cached
 * answer holds them as they are).
 */
async function pageAnswer(
  db: Db,
  urls: MediaUrls,
  rows: SessionRow[],
  total: number,
  pageSize: number,
  recentSince: number,
  /** The page's labels when its statement read them (PostgreSQL's page in one). */
  known?: Map<number, Label[]>,
): Promise<GroupInfoAnswer> {
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  const labels =
    known ??
    (await labelsRepository.ofChats(
      db,
      page.map((row) => row.id),
    ));
  return {
    account_list: page.map((row) => ({
      ...toSessionItem(row, recentSince, urls),
      labels: labels.get(row.id) ?? [],
    })),
    total,
    next_cursor:
      rows.length > pageSize && last
        ? encodeCursor([last.is_top, last.latest_time, last.id])
        : null,
  };
}

/**
 * getGroupInfo read whole, on either database: the group check and its kept total in one
 * statement, then the page (and a keyword's exact count). A keyword search is always read so.
 */
export async function readGroupInfo(
  db: Db,
  urls: MediaUrls,
  seatId: number,
  input: GroupInfoInput,
  now = Date.now(),
): Promise<GroupInfoAnswer> {
  const { filter, after } = listRead(seatId, input, now);
  const counted = await sessionsRepository.groupWithTotal(db, filter);
  if (!counted) throw notFound();
  const [rows, total] = await Promise.all([
    sessionsRepository.page(db, filter, after, input.page_size + 1),
    filter.keyword || filter.labelId !== undefined
      ? sessionsRepository.count(db, filter)
      : counted.total,
  ]);
  return pageAnswer(db, urls, rows, total, input.page_size, filter.recentSince);
}

const cacheKey = (seatId: number, input: GroupInfoInput) => `${seatId}:${JSON.stringify(input)}`;

/** A reader's database, its URLs and its cache of answers under the seats' list versions. */
abstract class CachingReader implements ChatListReader {
  protected readonly pages: ListCache;

  constructor(
    protected readonly db: Db,
    protected readonly urls: MediaUrls,
    versions: KnownVersions,
  ) {
    this.pages = new ListCache(versions);
  }

  abstract answer(seatId: number, input: GroupInfoInput): Promise<SerializedAnswer>;
}

/**
 * SQLite: the seat's version first (one primary-key read, no round trip), then the page only
 * when it moved.
 */
export class VersionThenPageReader extends CachingReader {
  answer(seatId: number, input: GroupInfoInput): Promise<SerializedAnswer> {
    return this.pages.answer(
      seatId,
      cacheKey(seatId, input),
      (since) => listVersionsRepository.forGroup(this.db, seatId, input.group_id, since),
      (now) => readGroupInfo(this.db, this.urls, seatId, input, now),
    );
  }
}

/**
 * PostgreSQL: the version, the total and the page in one statement (page-in-one.repository),
 * the page read only when the version moved: round trips are most of a read's cost there.
 */
export class PageInOneReader extends CachingReader {
  answer(seatId: number, input: GroupInfoInput): Promise<SerializedAnswer> {
    return this.pages.answerInOne(seatId, cacheKey(seatId, input), async (held, now) => {
      const { filter, after } = listRead(seatId, input, now);
      const read = await pageInOneRepository.read(
        this.db,
        filter,
        after,
        input.page_size + 1,
        held,
      );
      if (!read) throw notFound();
      const { page, ...version } = read;
      const data =
        page &&
        (await pageAnswer(
          this.db,
          this.urls,
          page.rows,
          page.total,
          input.page_size,
          filter.recentSince,
          page.labels,
        ));
      return { ...version, data };
    });
  }
}
