// A chat's 50 texts translated at once through the real Apertium APY (see bench/README.md).
// Usage: npm run build && node bench/translate-batch.mjs [--rounds 7] [--pg postgres://…]
//   [--suffix name]
import { createServer } from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startApy } from './lib/apertium.mjs';
import { finishReport, machineOf, median, printTable } from './lib/load.mjs';
import {
  createTarget,
  dropTarget,
  freePort,
  requireBuild,
  round,
  runBench,
  runCli,
  startServer,
  stopServer,
} from './lib/workspace.mjs';

requireBuild('translate-batch.mjs');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const ROUNDS = Number(opt('rounds', 7));
const PG = opt('pg', null);
const PASSWORD = 'bench-password-1';
const LANGPAIR = 'spa|eng';
/** Targets of issue 25: engine requests per 50 texts, and time against one joined request. */
const MAX_REQUESTS = 2;
const MAX_RATIO = 2;

/** A forwarding proxy in front of APY that counts the /translate requests it passes on. */
async function countingProxy(apyUrl) {
  const counter = { translate: 0 };
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    if (req.url === '/translate') counter.translate++;
    try {
      const answer = await fetch(`${apyUrl}${req.url}`, {
        method: req.method,
        headers: { 'content-type': req.headers['content-type'] ?? 'text/plain' },
        ...(req.method === 'POST' ? { body } : {}),
      });
      const text = await answer.text();
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(text);
    } catch {
      res.writeHead(502).end();
    }
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, counter, close: () => server.close() };
}

async function apy(url, q) {
  const res = await fetch(`${url}/translate`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ langpair: LANGPAIR, q, format: 'txt', markUnknown: 'no' }),
  });
  return (await res.json()).responseData.translatedText;
}

const OPENINGS = ['Hola,', 'Buenos días,', 'Perdone,', 'Mire,', 'Por favor,'];
const BODIES = [
  'quiero saber dónde está mi pedido',
  '¿cuánto cuesta enviar el paquete a la oficina?',
  'el producto llegó roto y necesito una respuesta',
  'gracias por la ayuda, ya puedo entrar en mi cuenta',
  'mi hermano quiere cambiar la camisa por otra más grande',
  '¿tienen la chaqueta azul en la tienda del centro?',
  'no recibí el correo de confirmación',
  'prefiero pagar con tarjeta cuando llegue el paquete',
  '¿pueden llamarme mañana por la tarde?',
  'la dirección de entrega es la casa de mi madre',
];
const NAMES = [
  'Ana',
  'Luis',
  'Marta',
  'Pablo',
  'Sofía',
  'Jorge',
  'Lucía',
  'Diego',
  'Elena',
  'Raúl',
];
/** 50 different chat messages; each round's are new (a name), so no memory answers them. */
function chatTexts(round) {
  const name =
    NAMES[round % NAMES.length] +
    (round >= NAMES.length ? ` ${NAMES[Math.floor(round / NAMES.length) % NAMES.length]}` : '');
  return BODIES.flatMap((b) => OPENINGS.map((o) => `${o} ${name}, ${b}`));
}

/** What the old adapter did: one request per text, 4 at a time. */
async function onePerText(url, texts) {
  const out = new Array(texts.length);
  let next = 0;
  const worker = async () => {
    while (next < texts.length) {
      const i = next++;
      out[i] = await apy(url, texts[i]);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return out;
}

/** The ceiling: the 50 texts joined by hand into one request, split back. */
async function joinedByHand(url, texts) {
  const sep = '\n\n.\n\n';
  const parts = (await apy(url, texts.join(sep))).split(sep);
  if (parts.length !== texts.length) throw new Error('the hand-joined answer did not split back');
  return parts;
}

async function main() {
  const started = new Date();
  const loadBefore = os.loadavg()[0];
  const engine = await startApy(['spa-eng'], 'apertium-eng-spa');
  const proxy = await countingProxy(engine.url);
  const { target, env: baseEnv } = await createTarget(PG);
  const env = { ...baseEnv, APERTIUM_URL: proxy.url, PARLEY_TRANSLATION_PROVIDERS: 'apertium' };
  const problems = [];
  let server = null;
  try {
    runCli(['seat:create', 'tr-a', '--password', PASSWORD], env);
    runCli(['seat:create', 'tr-b', '--password', PASSWORD], env);
    server = await startServer(env);
    const login = async (account) => {
      const res = await fetch(`${server.base}/v1/seat/chat/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account, password: PASSWORD }),
      });
      return (await res.json()).data.token;
    };
    const [tokenA, tokenB] = [await login('tr-a'), await login('tr-b')];
    const textV2 = async (token, texts) => {
      const res = await fetch(`${server.base}/v1/seat/chat/translate/text_v2`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ texts, source_lang: 'ES', target_lang: 'EN' }),
      });
      const json = await res.json();
      if (json.code !== '000000') throw new Error(`text_v2 answered ${JSON.stringify(json)}`);
      return json.data.translations.map((t) => t.text);
    };
    // APY starts a pair's pipeline on its first request: not measured.
    await apy(engine.url, 'Hola amigo');
    await textV2(tokenA, ['Buenas tardes', 'Hasta luego']);

    const rows = [];
    for (let r = 0; r < ROUNDS; r++) {
      const texts = chatTexts(r);
      // The order changes each round, so neither path always runs on a warmer engine.
      const paths = [
        [
          'server',
          async () => {
            const before = proxy.counter.translate;
            const out = await textV2(tokenA, texts);
            return { out, requests: proxy.counter.translate - before };
          },
        ],
        ['ceiling', async () => ({ out: await joinedByHand(engine.url, texts), requests: 1 })],
        ['one_per_text', async () => ({ out: await onePerText(engine.url, texts), requests: 50 })],
      ];
      const order = r % 2 ? paths.reverse() : paths;
      const row = { round: r };
      const outs = {};
      for (const [name, run] of order) {
        const t0 = performance.now();
        const { out, requests } = await run();
        row[`${name}_ms`] = round(performance.now() - t0);
        row[`${name}_requests`] = requests;
        outs[name] = out;
      }
      // The same words whichever way they went.
      for (const name of ['server', 'ceiling']) {
        if (JSON.stringify(outs[name]) !== JSON.stringify(outs.one_per_text)) {
          problems.push(`round ${r}: ${name} translated differently from one text per request`);
        }
      }
      // A second seat asks the same chat: the shared memory answers it.
      const before = proxy.counter.translate;
      await textV2(tokenB, texts);
      row.second_seat_requests = proxy.counter.translate - before;
      rows.push(row);
    }

    const med = (key) => round(median(rows.map((x) => x[key])));
    const summary = {
      texts_per_chat: 50,
      rounds: ROUNDS,
      server_requests_max: Math.max(...rows.map((x) => x.server_requests)),
      server_ms_median: med('server_ms'),
      ceiling_ms_median: med('ceiling_ms'),
      one_per_text_ms_median: med('one_per_text_ms'),
      ratio_to_ceiling: round(med('server_ms') / med('ceiling_ms')),
      second_seat_requests_max: Math.max(...rows.map((x) => x.second_seat_requests)),
      targets: { max_requests: MAX_REQUESTS, max_ratio: MAX_RATIO },
    };
    if (summary.server_requests_max > MAX_REQUESTS) {
      problems.push(
        `${summary.server_requests_max} engine requests for 50 texts (≤ ${MAX_REQUESTS})`,
      );
    }
    if (summary.ratio_to_ceiling > MAX_RATIO) {
      problems.push(`${summary.ratio_to_ceiling}× the one-request ceiling (≤ ${MAX_RATIO}×)`);
    }
    const machine = machineOf(loadBefore);
    console.log(
      `50-text chat through the real Apertium APY (spa→eng), ${target.kind} | ${machine.cpus} CPU(s) ` +
        `${machine.cpu_model}, Node ${machine.node}, load ${machine.load_avg_1m_before} → ${machine.load_avg_1m_after}`,
    );
    printTable(
      [
        'round',
        'server ms',
        'server req',
        'ceiling ms (1 req)',
        'one per text ms (50 req)',
        '2nd seat req',
      ],
      rows.map((x) => [
        x.round,
        x.server_ms,
        x.server_requests,
        x.ceiling_ms,
        x.one_per_text_ms,
        x.second_seat_requests,
      ]),
    );
    console.log(
      `median: server ${summary.server_ms_median} ms in ≤ ${summary.server_requests_max} request(s), ` +
        `ceiling ${summary.ceiling_ms_median} ms, ratio ${summary.ratio_to_ceiling}× (target ≤ ${MAX_RATIO}×); ` +
        `one request per text ${summary.one_per_text_ms_median} ms`,
    );
    finishReport('translate-batch', started, target.kind, problems, { machine, summary, rows });
  } finally {
    if (server) await stopServer(server);
    proxy.close();
    engine.stop();
    await dropTarget(target, env);
  }
}

runBench(main, 10);
