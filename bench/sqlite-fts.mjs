#!/usr/bin/env node
// What a message's full-text entry costs SQLite, row by row or a batch per statement (see
// bench/README.md, "sqlite-fts.mjs").
//
//   npm run build && node bench/sqlite-fts.mjs [--rounds N] [--seconds S]
//
// Seeds the shared large workspace (the server's own schema: messages_fts, FTS5 trigram, kept
// by triggers) and inserts message rows for `seconds` per scenario, in transactions of BATCH
// rows as a group commit of sends holds them, without a sync per commit:
// - one INSERT per row (what every send does inside the group commit today);
// - one INSERT of the BATCH rows;
// - one INSERT per row with the full-text trigger dropped (the rows without their entries);
// each scenario on a fresh copy of the seeded file.
// FTS5 keeps a transaction's new entries in memory and writes them out as a segment whenever
// a statement that may need rolling back starts (its savepoint), so row by row each message
// writes a segment of its own; one statement for the batch writes one.
import { copyFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  MESSAGE_COLUMNS,
  createTarget,
  dropTarget,
  log,
  requireBuild,
  round,
  seed,
} from './lib/workspace.mjs';
import { benchOptions, finishReport, machineOf, median, printTable } from './lib/load.mjs';

const opt = benchOptions('sqlite-fts.mjs');
requireBuild('sqlite-fts.mjs');
if (opt.pg) {
  console.error('sqlite-fts.mjs measures SQLite only');
  process.exit(2);
}

/** Rows per transaction: about a group commit of sends at 32 connections. */
const BATCH = 16;
const TEXT = 'Thanks for waiting, your order 4711-2023 left the warehouse and arrives tomorrow.';

async function main() {
  const started = new Date();
  const problems = [];
  const rounds = [];
  const { target, env } = await createTarget(null);
  try {
    const info = await seed(target, env);
    log(`seeded ${info.chats} chats, ${info.messages} messages`);
    const { default: Database } = await import('better-sqlite3');
    const seeded = path.join(target.dataDir, 'parley.db');
    const copy = path.join(target.dataDir, 'scenario.db');
    const base = new Database(seeded);
    base.pragma('wal_checkpoint(TRUNCATE)'); // the whole seed in the file that is copied
    base.close();
    // Each scenario on a fresh copy of the seeded file: the index's segments as the seed left
    // them, not as the scenario before left them.
    const scenario = (name, write) => {
      for (const f of [copy, `${copy}-wal`, `${copy}-shm`]) rmSync(f, { force: true });
      copyFileSync(seeded, copy);
      const raw = new Database(copy);
      raw.pragma('journal_mode = WAL');
      raw.pragma('synchronous = NORMAL');
      raw.pragma('foreign_keys = ON');
      try {
        if (write === 'no-fts') raw.exec('DROP TRIGGER messages_fts_insert');
        const chats = raw
          .prepare('SELECT id FROM sessions WHERE seat_id = ? ORDER BY id LIMIT 64')
          .all(info.seat_id)
          .map((r) => r.id);
        const row = `(${MESSAGE_COLUMNS.map(() => '?').join(', ')})`;
        const insert = `INSERT INTO messages (${MESSAGE_COLUMNS.join(', ')}) VALUES `;
        const one = raw.prepare(`${insert}${row}`);
        const many = raw.prepare(`${insert}${Array(BATCH).fill(row).join(', ')}`);
        let n = 0;
        const values = () => {
          const i = n++;
          const text = `${TEXT} #${i}`;
          return [chats[i % chats.length], info.seat_id, `fts-${i}`, 'out', 'text', text];
        };
        const rest = [null, 'sent', Date.now(), 0, 0];
        const tx = raw.transaction(
          write === 'batch'
            ? () => many.run(...Array.from({ length: BATCH }, () => [...values(), ...rest]).flat())
            : () => {
                for (let k = 0; k < BATCH; k++) one.run(...values(), ...rest);
              },
        );
        const t0 = performance.now();
        const until = t0 + opt.seconds * 1000;
        while (performance.now() < until) tx();
        const us = round(((performance.now() - t0) * 1000) / n, 1);
        // Every row is stored; with the trigger, each has its entry and the last is found.
        const { m, f } = raw
          .prepare(
            `SELECT count(*) AS m, count(d.id) AS f FROM messages m
             LEFT JOIN messages_fts_docsize d ON d.id = m.id WHERE m.client_msg_id LIKE 'fts-%'`,
          )
          .get();
        const last = raw
          .prepare(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?`)
          .all(`"arrives tomorrow. #${n - 1}"`).length;
        const want = write === 'no-fts' ? { m: n, f: 0, last: 0 } : { m: n, f: n, last: 1 };
        if (m !== want.m || f !== want.f || last !== want.last) {
          problems.push(`${name}: wrote ${n}, stored ${m}, with an entry ${f}, last found ${last}`);
        }
        return us;
      } finally {
        raw.close();
      }
    };
    scenario('warm-up', 'row');
    for (let r = 0; r < opt.rounds; r++) {
      log(`round ${r + 1}/${opt.rounds}`);
      rounds.push({
        row_by_row_us: scenario('row by row', 'row'),
        one_statement_us: scenario('one statement', 'batch'),
        no_fts_us: scenario('no trigger', 'no-fts'),
      });
    }
  } catch (err) {
    problems.push(`run aborted: ${err.stack ?? err.message}`);
  } finally {
    await dropTarget(target, env, opt.keep);
  }
  const pick = (k) => median(rounds.map((r) => r[k]));
  const result = rounds.length
    ? {
        row_by_row_us: pick('row_by_row_us'),
        one_statement_us: pick('one_statement_us'),
        no_fts_us: pick('no_fts_us'),
      }
    : null;
  const machine = machineOf(null);
  console.log(
    `\nSQLite message inserts, ${BATCH} rows per transaction, synchronous NORMAL | ` +
      `${machine.cpus} CPU(s) ${machine.cpu_model}, Node ${machine.node} | ` +
      `${opt.rounds} × ${opt.seconds} s each, medians`,
  );
  if (result) {
    const rel = (v) => `${round((v / result.row_by_row_us) * 100, 1)} %`;
    printTable(
      ['scenario', 'µs per message', 'of row by row'],
      [
        ['one INSERT per row (a send in the group commit)', result.row_by_row_us, '100 %'],
        [`one INSERT of ${BATCH} rows`, result.one_statement_us, rel(result.one_statement_us)],
        ['one INSERT per row, no full-text trigger', result.no_fts_us, rel(result.no_fts_us)],
      ],
    );
  }
  finishReport('sqlite-fts', started, 'sqlite', problems, {
    machine,
    options: { batch: BATCH, rounds: opt.rounds, seconds: opt.seconds },
    result,
    rounds,
  });
}

await main();
