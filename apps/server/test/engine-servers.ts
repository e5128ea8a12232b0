/**
 * Local HTTP servers that follow the published APIs of DeepL (v2) and LibreTranslate, on
 * loopback, for the adapters' contract tests: they check what the adapter sends (paths,
 * headers, body shape, limits), answer in the documented shapes, count requests, and can be
 * told to answer the next requests with an error status. Their "translation" is a small
 * phrasebook, else the text tagged with the target language: easy to assert on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback.js';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

type Answer = number | { status: number; body?: unknown; headers?: Record<string, string> };

const PHRASEBOOK: Record<string, Record<string, string>> = {
  'es>en': { hola: 'Hello', gracias: 'Thank you', '¿cuánto cuesta?': 'How much is it?' },
  'en>es': { hello: 'Hola', 'thank you': 'Gracias', 'how much is it?': '¿Cuánto cuesta?' },
};
const SPANISH = /[ñ¿¡áéíóú]|\b(hola|gracias|el|la|los|las|por|para|cuesta|quiero)\b/i;

/** The phrasebook's answer, else `[target] text`. Languages are lower-case base codes. */
export function phrasebook(text: string, source: string, target: string): string {
  return PHRASEBOOK[`${source}>${target}`]?.[text.toLowerCase()] ?? `[${target}] ${text}`;
}
export function detect(text: string): string {
  if (/[\u0400-\u04FF]/.test(text)) return 'ru';
  return SPANISH.test(text) ? 'es' : 'en';
}

abstract class LocalEngine {
  readonly requests: SeenRequest[] = [];
  private readonly failures = new Map<string, Answer[]>();
  /** Phrases taught by a test ("es>en" -> exact text -> translation), before the phrasebook. */
  private readonly taught = new Map<string, Map<string, string>>();
  private broken = 0;
  private readonly holds = new Map<string, { arrived: () => void; released: Promise<void> }[]>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.url = await listenOnLoopback(this.server);
    return this;
  }

  async stop() {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  /** The next requests to `path` get these answers (a status, or a status with a body). */
  failNext(path: string, ...answers: Answer[]) {
    this.failures.set(path, [...(this.failures.get(path) ?? []), ...answers]);
  }

  /**
   * The next request to `path` waits, unanswered, until `release()` (two instances caught in
   * the middle of the same work); `arrived` resolves when it has come.
   */
  holdNext(path: string): { arrived: Promise<void>; release: () => void } {
    let arrived!: () => void;
    let release!: () => void;
    const came = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.set(path, [...(this.holds.get(path) ?? []), { arrived, released }]);
    return { arrived: came, release };
  }

  /** Requests to one path (e.g. '/v2/translate'). */
  calls(path: string): SeenRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  reset() {
    this.requests.length = 0;
    this.failures.clear();
    this.broken = 0;
  }

  /** Exact texts this engine translates so from `source` to `target` (lower-case base codes). */
  teach(source: string, target: string, phrases: Record<string, string>) {
    const key = `${source}>${target}`;
    const known = this.taught.get(key) ?? new Map<string, string>();
    for (const [text, translation] of Object.entries(phrases)) known.set(text, translation);
    this.taught.set(key, known);
  }

  /**
   * The next `requests` translation requests come back broken: the first text's answer ends
   * with a number the text did not hold (" 10"), as an engine that garbles a figure.
   */
  breakNumbers(requests = 1) {
    this.broken += requests;
  }

  /** The translation of one text: taught, else the phrasebook's. */
  protected say(text: string, source: string, target: string): string {
    return this.taught.get(`${source}>${target}`)?.get(text) ?? phrasebook(text, source, target);
  }

  /** A broken request's answers: the first one gains a number. */
  protected maybeBreak(texts: string[]): string[] {
    if (this.broken === 0 || texts.length === 0) return texts;
    this.broken--;
    return [`${texts[0]} 10`, ...texts.slice(1)];
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://local');
    let body: unknown = raw;
    if ((req.headers['content-type'] ?? '').includes('application/json') && raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return send(res, 400, { message: 'Invalid JSON' });
      }
    }
    const seen = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
    };
    this.requests.push(seen);
    const hold = this.holds.get(url.pathname)?.shift();
    if (hold) {
      hold.arrived();
      await hold.released;
    }
    const forced = this.failures.get(url.pathname)?.shift();
    if (forced !== undefined) {
      const a = typeof forced === 'number' ? { status: forced } : forced;
      return send(res, a.status, a.body ?? { message: `status ${a.status}` }, a.headers);
    }
    const [status, answer] = this.answer(seen);
    send(res, status, answer);
  }

  protected abstract answer(req: SeenRequest): [number, unknown];
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  if (status === 204) {
    res.writeHead(204, headers);
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const DEEPL_SOURCES = [
  'BG',
  'CS',
  'DA',
  'DE',
  'EL',
  'EN',
  'ES',
  'ET',
  'FI',
  'FR',
  'HU',
  'ID',
  'IT',
  'JA',
  'KO',
  'LT',
  'LV',
  'NB',
  'NL',
  'PL',
  'PT',
  'RO',
  'RU',
  'SK',
  'SL',
  'SV',
  'TR',
  'UK',
  'ZH',
];
const DEEPL_TARGETS = [
  ...DEEPL_SOURCES.filter((c) => !['EN', 'PT', 'ZH'].includes(c)),
  'EN-GB',
  'EN-US',
  'PT-BR',
  'PT-PT',
  'ZH-HANS',
  'ZH-HANT',
];

/** Languages DeepL's glossaries take (v3 reference: the enum of a dictionary's languages). */
const GLOSSARY_LANGS = [
  'ar',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'es',
  'et',
  'fi',
  'fr',
  'he',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'nb',
  'nl',
  'pl',
  'pt',
  'ro',
  'ru',
  'sk',
  'sl',
  'sv',
  'th',
  'tr',
  'uk',
  'vi',
  'zh',
];

interface LocalDictionary {
  source_lang: string;
  target_lang: string;
  entries: Map<string, string>;
  creation_time: string;
}
interface LocalGlossary {
  glossary_id: string;
  name: string;
  dictionaries: LocalDictionary[];
  creation_time: string;
}

/** TSV or CSV entries as the v3 reference describes them (source first, one per line). */
function parseEntries(entries: unknown, format: unknown): Map<string, string> | string {
  if (typeof entries !== 'string') return "Missing or invalid argument: 'entries'";
  if (format !== 'tsv' && format !== 'csv') return "Value for 'entries_format' not supported.";
  const out = new Map<string, string>();
  for (const line of entries.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const parts = format === 'tsv' ? line.split('\t') : line.split(',');
    if (parts.length < 2 || !parts[0]!.trim() || !parts[1]!.trim()) {
      return `Invalid glossary entries: ${JSON.stringify(line.slice(0, 40))}`;
    }
    if (Buffer.byteLength(parts[0]!) > 1024 || Buffer.byteLength(parts[1]!) > 1024) {
      return 'Glossary entry too long';
    }
    if (out.has(parts[0]!)) return `Duplicate source entry ${JSON.stringify(parts[0])}`;
    out.set(parts[0]!, parts[1]!);
  }
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * DeepL API v2 (POST /v2/translate, GET /v2/languages) and the v3 multilingual glossaries
 * (https://developers.deepl.com/api-reference/multilingual-glossaries, as published in 2025:
 * POST/GET /v3/glossaries, GET/PATCH/DELETE /v3/glossaries/{id}, PUT/DELETE
 * /v3/glossaries/{id}/dictionaries, GET /v3/glossaries/{id}/entries), `DeepL-Auth-Key` auth. A
 * translation with `glossary_id` needs `source_lang` and uses the glossary's dictionary of the
 * pair: each source phrase (whole words, any case) stands as its target phrase.
 */
export class LocalDeepl extends LocalEngine {
  readonly glossaries = new Map<string, LocalGlossary>();
  private nextGlossary = 1;
  /** Answer glossary calls with this status (an account that cannot have glossaries). */
  refuseGlossaries: number | null = null;

  constructor(readonly authKey = 'local-key:fx') {
    super();
  }

  override reset() {
    super.reset();
    this.glossaries.clear();
    this.refuseGlossaries = null;
  }

  private info(g: LocalGlossary) {
    return {
      glossary_id: g.glossary_id,
      name: g.name,
      dictionaries: g.dictionaries.map((d) => ({
        source_lang: d.source_lang,
        target_lang: d.target_lang,
        entry_count: d.entries.size,
      })),
      creation_time: g.creation_time,
    };
  }

  /** A dictionary of a request body, or the 400 message. */
  private dictionary(body: unknown): LocalDictionary | string {
    const d = body as {
      source_lang?: unknown;
      target_lang?: unknown;
      entries?: unknown;
      entries_format?: unknown;
    };
    const source = String(d?.source_lang ?? '').toLowerCase();
    const target = String(d?.target_lang ?? '').toLowerCase();
    if (!GLOSSARY_LANGS.includes(source)) return "Value for 'source_lang' not supported.";
    if (!GLOSSARY_LANGS.includes(target) || target === source) {
      return "Value for 'target_lang' not supported.";
    }
    const entries = parseEntries(d.entries, d.entries_format);
    if (typeof entries === 'string') return entries;
    return {
      source_lang: source,
      target_lang: target,
      entries,
      creation_time: new Date().toISOString(),
    };
  }

  private glossaryAnswer(req: SeenRequest): [number, unknown] {
    if (this.refuseGlossaries !== null) {
      return [this.refuseGlossaries, { message: 'Glossaries are not available' }];
    }
    const body = req.body as { name?: unknown; dictionaries?: unknown };
    if (req.path === '/v3/glossaries') {
      if (req.method === 'GET') {
        return [200, { glossaries: [...this.glossaries.values()].map((g) => this.info(g)) }];
      }
      if (req.method !== 'POST') return [405, { message: 'Method not allowed' }];
      if (typeof body?.name !== 'string' || !body.name) {
        return [400, { message: "Missing or invalid argument: 'name'" }];
      }
      if (!Array.isArray(body.dictionaries) || body.dictionaries.length === 0) {
        return [400, { message: "Missing or invalid argument: 'dictionaries'" }];
      }
      const dictionaries: LocalDictionary[] = [];
      for (const raw of body.dictionaries) {
        const d = this.dictionary(raw);
        if (typeof d === 'string') return [400, { message: d }];
        dictionaries.push(d);
      }
      const g = {
        glossary_id: `local-glossary-${this.nextGlossary++}`,
        name: body.name,
        dictionaries,
        creation_time: new Date().toISOString(),
      };
      this.glossaries.set(g.glossary_id, g);
      return [201, this.info(g)];
    }
    const m = /^\/v3\/glossaries\/([^/]+)(\/dictionaries|\/entries)?$/.exec(req.path);
    const g = m ? this.glossaries.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || !g) return [404, { message: 'Glossary not found' }];
    const pairOf = () => ({
      source: (req.query.get('source_lang') ?? '').toLowerCase(),
      target: (req.query.get('target_lang') ?? '').toLowerCase(),
    });
    if (m[2] === '/entries' && req.method === 'GET') {
      const { source, target } = pairOf();
      const d = g.dictionaries.find((x) => x.source_lang === source && x.target_lang === target);
      if (!d) return [404, { message: 'Dictionary not found' }];
      const entries = [...d.entries].map(([a, b]) => `${a}\t${b}`).join('\n');
      return [
        200,
        {
          dictionaries: [
            { source_lang: source, target_lang: target, entries, entries_format: 'tsv' },
          ],
        },
      ];
    }
    if (m[2] === '/dictionaries') {
      if (req.method === 'PUT') {
        const d = this.dictionary(req.body);
        if (typeof d === 'string') return [400, { message: d }];
        g.dictionaries = g.dictionaries.filter(
          (x) => !(x.source_lang === d.source_lang && x.target_lang === d.target_lang),
        );
        g.dictionaries.push(d);
        return [
          200,
          { source_lang: d.source_lang, target_lang: d.target_lang, entry_count: d.entries.size },
        ];
      }
      if (req.method === 'DELETE') {
        const { source, target } = pairOf();
        const before = g.dictionaries.length;
        g.dictionaries = g.dictionaries.filter(
          (x) => !(x.source_lang === source && x.target_lang === target),
        );
        return g.dictionaries.length < before
          ? [204, null]
          : [404, { message: 'Dictionary not found' }];
      }
      return [405, { message: 'Method not allowed' }];
    }
    if (req.method === 'GET') return [200, this.info(g)];
    if (req.method === 'DELETE') {
      this.glossaries.delete(g.glossary_id);
      return [204, null];
    }
    if (req.method === 'PATCH') {
      if (body?.name !== undefined) {
        if (typeof body.name !== 'string' || !body.name) {
          return [400, { message: "Missing or invalid argument: 'name'" }];
        }
        g.name = body.name;
      }
      if (body?.dictionaries !== undefined) {
        // The reference: 0 or 1 dictionary; its entries are merged into the pair's.
        if (!Array.isArray(body.dictionaries) || body.dictionaries.length > 1) {
          return [400, { message: "Invalid argument: 'dictionaries'" }];
        }
        for (const raw of body.dictionaries) {
          const d = this.dictionary(raw);
          if (typeof d === 'string') return [400, { message: d }];
          const had = g.dictionaries.find(
            (x) => x.source_lang === d.source_lang && x.target_lang === d.target_lang,
          );
          if (had) for (const [a, b] of d.entries) had.entries.set(a, b);
          else g.dictionaries.push(d);
        }
      }
      return [200, this.info(g)];
    }
    return [405, { message: 'Method not allowed' }];
  }

  /** The glossary's dictionary of the pair applied to a text (whole words, any case). */
  private applyGlossary(text: string, id: string, source: string, target: string) {
    const d = this.glossaries
      .get(id)
      ?.dictionaries.find((x) => x.source_lang === source && x.target_lang === target);
    if (!d) return text;
    const terms = [...d.entries.keys()].sort((a, b) => b.length - a.length);
    if (terms.length === 0) return text;
    const re = new RegExp(
      `(?<![\\p{L}\\p{N}])(?:${terms.map(escapeRe).join('|')})(?![\\p{L}\\p{N}])`,
      'giu',
    );
    return text.replace(re, (m) =>
      d.entries.get(terms.find((t) => t.toLowerCase() === m.toLowerCase())!)!,
    );
  }

  protected answer(req: SeenRequest): [number, unknown] {
    if (req.headers.authorization !== `DeepL-Auth-Key ${this.authKey}`) {
      return [403, { message: 'Authorization failure, check auth_key' }];
    }
    if (req.path.startsWith('/v3/glossaries')) return this.glossaryAnswer(req);
    if (req.method === 'GET' && req.path === '/v2/languages') {
      const type = req.query.get('type') ?? 'source';
      const list = type === 'target' ? DEEPL_TARGETS : DEEPL_SOURCES;
      return [200, list.map((language) => ({ language, name: language }))];
    }
    if (req.method !== 'POST' || req.path !== '/v2/translate')
      return [404, { message: 'Not found' }];
    if (!(req.headers['content-type'] ?? '').includes('application/json')) {
      return [415, { message: 'Unsupported media type' }];
    }
    const body = req.body as {
      text?: unknown;
      target_lang?: unknown;
      source_lang?: unknown;
      glossary_id?: unknown;
    };
    if (
      !Array.isArray(body.text) ||
      body.text.length === 0 ||
      !body.text.every((t) => typeof t === 'string')
    ) {
      return [400, { message: "Parameter 'text' not specified." }];
    }
    if (body.text.length > 50) return [413, { message: 'Request Entity Too Large' }];
    const target = String(body.target_lang ?? '').toUpperCase();
    if (!DEEPL_TARGETS.includes(target) && !['EN', 'PT', 'ZH'].includes(target)) {
      return [400, { message: "Value for 'target_lang' not supported." }];
    }
    const source = body.source_lang === undefined ? null : String(body.source_lang).toUpperCase();
    if (source !== null && !DEEPL_SOURCES.includes(source)) {
      return [400, { message: "Value for 'source_lang' not supported." }];
    }
    const to = target.split('-')[0]!.toLowerCase();
    const glossaryId = typeof body.glossary_id === 'string' ? body.glossary_id : null;
    if (glossaryId !== null) {
      if (source === null) {
        return [
          400,
          { message: 'Use of a glossary requires the source_lang parameter to be set.' },
        ];
      }
      if (!this.glossaries.has(glossaryId)) return [404, { message: 'Glossary not found' }];
    }
    const texts = body.text as string[];
    const from = texts.map((text) => source?.toLowerCase() ?? detect(text));
    const said = this.maybeBreak(
      texts.map((text, i) => {
        const own = glossaryId ? this.applyGlossary(text, glossaryId, from[i]!, to) : text;
        return this.say(own, from[i]!, to);
      }),
    );
    return [
      200,
      {
        translations: said.map((text, i) => ({
          detected_source_language: from[i]!.toUpperCase(),
          text,
        })),
      },
    ];
  }
}

const LIBRE_CODES = ['en', 'es', 'fr', 'de', 'pt', 'pb', 'ru', 'zh-Hans', 'zt', 'nb', 'ja'];

/** LibreTranslate: POST /translate (q string or array), GET /languages; optional api_key. */
export class LocalLibreTranslate extends LocalEngine {
  constructor(readonly apiKey: string | null = null) {
    super();
  }

  protected answer(req: SeenRequest): [number, unknown] {
    if (req.method === 'GET' && req.path === '/languages') {
      return [
        200,
        LIBRE_CODES.map((code) => ({
          code,
          name: code,
          targets: LIBRE_CODES.filter((c) => c !== code),
        })),
      ];
    }
    if (req.method !== 'POST' || req.path !== '/translate') return [404, { error: 'Not Found' }];
    const body = req.body as { q?: unknown; source?: unknown; target?: unknown; api_key?: unknown };
    if (this.apiKey !== null && body.api_key !== this.apiKey) {
      return [403, { error: 'Invalid API key' }];
    }
    if (body.q === undefined) return [400, { error: 'Invalid request: missing q parameter' }];
    const source = String(body.source ?? '');
    const target = String(body.target ?? '');
    if (source !== 'auto' && !LIBRE_CODES.includes(source))
      return [400, { error: `${source} is not supported` }];
    if (!LIBRE_CODES.includes(target)) return [400, { error: `${target} is not supported` }];
    const one = (text: string) => {
      const from = source === 'auto' ? detect(text) : source;
      return { text: this.say(text, from.slice(0, 2), target.slice(0, 2)), from };
    };
    if (Array.isArray(body.q)) {
      const out = (body.q as string[]).map(one);
      return [
        200,
        {
          translatedText: this.maybeBreak(out.map((o) => o.text)),
          ...(source === 'auto'
            ? { detectedLanguage: out.map((o) => ({ confidence: 90, language: o.from })) }
            : {}),
        },
      ];
    }
    const o = one(String(body.q));
    return [
      200,
      {
        translatedText: this.maybeBreak([o.text])[0],
        ...(source === 'auto' ? { detectedLanguage: { confidence: 90, language: o.from } } : {}),
      },
    ];
  }
}
