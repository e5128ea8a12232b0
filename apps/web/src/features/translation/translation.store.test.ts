import { describe, expect, it } from 'vitest';
import { TRANSLATION_CACHE_MINUTES, TRANSLATION_DEFAULTS } from '@parley/protocol';
import { clearOnLogout } from '../../lib/storage';
import { createTranslationStore, normalize } from './translation.store';
import { memoryStore } from '../../test/builders';

const MIN = 60_000;

const stored = (s: ReturnType<typeof memoryStore>) =>
  JSON.parse(s.map.get('translate') ?? 'null') as Record<string, unknown>;

describe('translation settings store', () => {
  it('starts from the spec defaults and stores them under `translate`', () => {
    const s = memoryStore();
    const store = createTranslationStore(s);
    expect(store.get()).toMatchObject({
      ...TRANSLATION_DEFAULTS,
      cacheTime: TRANSLATION_CACHE_MINUTES,
      hisTranslateMsg: [],
    });
    expect(stored(s)).toMatchObject({ sourceLanguage: 'EN', targetLanguage: 'ZH-HANS' });
  });

  it('writes every change at once, and a new store reads it back', () => {
    const s = memoryStore();
    createTranslationStore(s).update({
      isEnable: true,
      mode: 'auto_all',
      sourceLanguage: 'ES',
      targetLanguage: 'EN',
    });
    expect(stored(s)).toMatchObject({ isEnable: true, mode: 'auto_all', sourceLanguage: 'ES' });
    expect(createTranslationStore(s).get()).toMatchObject({ isEnable: true, targetLanguage: 'EN' });
  });

  it('puts unknown or malformed values back to their defaults', () => {
    expect(
      normalize({
        sourceLanguage: 'XX',
        targetLanguage: 'RU',
        isEnable: 'yes' as unknown as boolean,
        mode: 'sometimes',
        cacheTime: -5,
        hisTranslateMsg: [{ msg_id: 1 } as never],
      }),
    ).toMatchObject({
      sourceLanguage: 'EN',
      targetLanguage: 'RU',
      isEnable: false,
      mode: 'single',
      cacheTime: TRANSLATION_CACHE_MINUTES,
      hisTranslateMsg: [],
    });
  });

  it('drops expired history on load and when pruned', () => {
    let now = 100_000 * MIN;
    const s = memoryStore({
      translate: {
        cacheTime: 60,
        hisTranslateMsg: [
          { msg_id: 1, session_id: 1, text: 'old', lang: 'EN', at: now - 61 * MIN },
          { msg_id: 2, session_id: 1, text: 'young', lang: 'EN', at: now - 30 * MIN },
        ],
      },
    });
    const store = createTranslationStore(s, () => now);
    expect(store.get().hisTranslateMsg.map((e) => e.text)).toEqual(['young']);
    now += 31 * MIN;
    store.prune();
    expect(store.get().hisTranslateMsg).toEqual([]);
    expect(stored(s).hisTranslateMsg).toEqual([]);
  });

  it('remembers translations stamped now; clears the oldest N or all', () => {
    let now = 1_000;
    const s = memoryStore();
    const store = createTranslationStore(s, () => now);
    for (const id of [1, 2, 3]) {
      store.remember([{ session_id: 7, msg_id: id, text: `t${id}`, lang: 'EN' }]);
      now += 1_000;
    }
    expect(store.get().hisTranslateMsg.map((e) => e.at)).toEqual([1_000, 2_000, 3_000]);
    store.clear(2);
    expect(store.get().hisTranslateMsg.map((e) => e.msg_id)).toEqual([3]);
    store.clear();
    expect(stored(s).hisTranslateMsg).toEqual([]);
  });

  it('a shorter cache time drops what is now too old', () => {
    let now = 10_000 * MIN;
    const store = createTranslationStore(memoryStore(), () => now);
    store.remember([{ session_id: 1, msg_id: 1, text: 'a', lang: 'EN' }]);
    now += 2 * MIN;
    store.update({ cacheTime: 1 });
    expect(store.get().hisTranslateMsg).toEqual([]);
  });

  it('survives logout: only the translation settings are kept', () => {
    const s = memoryStore({ userInfo: { token: 'x' }, reply: 1 });
    const store = createTranslationStore(s);
    store.update({ isEnable: true });
    store.remember([{ session_id: 1, msg_id: 1, text: 'kept', lang: 'ZH-HANS' }]);
    clearOnLogout(s);
    expect([...s.map.keys()]).toEqual(['translate']);
    const again = createTranslationStore(s);
    expect(again.get().isEnable).toBe(true);
    expect(again.get().hisTranslateMsg.map((e) => e.text)).toEqual(['kept']);
  });
});
