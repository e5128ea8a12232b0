import { PushClient } from './ws-client.js';

export interface ResumeLoadOptions {
  /** The instances a console may reach; each resume goes to the next one (as a balancer would). */
  bases: string[];
  token: string;
  /** One send of sender `sender` (its `n`th); throws if it is refused. */
  send(sender: number, n: number): Promise<void>;
  senders: number;
  consoles: number;
  /** The load runs until both: this many resumes and this long (ms), at most `maxMs`. */
  minResumes: number;
  minMs: number;
  maxMs?: number;
}

export interface ResumeLoadResult {
  /** The seat's events during the load (after the consoles' first `ready`). */
  events: number;
  sends: number;
  resumes: number;
  /** Events a console never received, summed over the consoles. */
  missed: number;
  /** Consoles that missed at least one. */
  consolesMissing: number;
  /** Events received twice, and received after a later one. */
  doubled: number;
  outOfOrder: number;
  /** Resumes answered `reset` (never expected here: the gaps are small). */
  resets: number;
  /** The first ranges missed, as "console: from-to" (to read a failure). */
  gaps: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 32's load: consoles of one seat that drop and resume with their last event id, as the
 * web console does, again and again while several senders write; then every console's ids are
 * checked against the seat's log: each once, in order, none missing.
 */
export async function resumeLoad(o: ResumeLoadOptions): Promise<ResumeLoadResult> {
  const maxMs = o.maxMs ?? 20_000;
  let stop = false;
  let sends = 0;
  let resumes = 0;
  let resets = 0;
  const senders = Array.from({ length: o.senders }, async (_, s) => {
    for (let n = 0; !stop; n++) {
      await o.send(s, n);
      sends++;
    }
  });

  // Each console: the ids it handled, over all its sockets.
  const consoles = await Promise.all(
    Array.from({ length: o.consoles }, async (_, i) => {
      const client = await PushClient.open(o.bases[i % o.bases.length]!, {
        token: o.token,
        last_event_id: 0,
      });
      const ready = await client.waitFor('ready');
      if (ready.kind !== 'ready') throw new Error(`console ${i}: ${JSON.stringify(ready)}`);
      return { start: ready.last_event_id, ids: [] as number[], client };
    }),
  );
  const lastOf = (c: (typeof consoles)[number]) => c.ids.at(-1) ?? c.start;

  const started = Date.now();
  const cycles = consoles.map(async (c, i) => {
    let hop = i;
    while (!stop) {
      // Connected a while, dropped, away a while, then resumed from the last id it handled.
      await sleep(60 + Math.random() * 200);
      if (stop) break;
      c.client.close();
      await c.client.waitForClose();
      c.ids.push(...c.client.events().map((e) => e.id));
      await sleep(20 + Math.random() * 150);
      hop += 1;
      c.client = await PushClient.open(o.bases[hop % o.bases.length]!, {
        token: o.token,
        last_event_id: lastOf(c),
      });
      const answer = await c.client.until(
        () => c.client.frames.find((f) => f.kind === 'ready' || f.kind === 'reset'),
        'ready or reset',
      );
      if (answer.kind === 'reset') resets++;
      resumes++;
    }
  });
  while (
    (resumes < o.minResumes || Date.now() - started < o.minMs) &&
    Date.now() - started < maxMs
  ) {
    await sleep(50);
  }
  stop = true;
  await Promise.all([...senders, ...cycles]);

  // Every console's last socket catches up with the seat's newest event.
  const probe = await PushClient.open(o.bases[0]!, { token: o.token, last_event_id: 0 });
  const ready = await probe.waitFor('ready');
  probe.close();
  const newest = ready.kind === 'ready' ? ready.last_event_id : 0;
  await Promise.all(
    consoles.map((c) =>
      c.client
        .until(
          () => Math.max(lastOf(c), ...c.client.events().map((e) => e.id)) >= newest || undefined,
          `event ${newest}`,
          // A loaded machine: the last resumes may still be catching up.
          30_000,
        )
        .catch(() => undefined),
    ),
  );
  await sleep(100);

  let missed = 0;
  let consolesMissing = 0;
  let doubled = 0;
  let outOfOrder = 0;
  const gaps: string[] = [];
  const first = Math.min(...consoles.map((c) => c.start));
  for (const c of consoles) {
    c.client.close();
    c.ids.push(...c.client.events().map((e) => e.id));
    const seen = new Set(c.ids);
    doubled += c.ids.length - seen.size;
    outOfOrder += c.ids.filter((id, k) => k > 0 && id <= c.ids[k - 1]!).length;
    let lost = 0;
    for (let id = c.start + 1; id <= newest; id++) {
      if (seen.has(id)) continue;
      lost++;
      if (seen.has(id - 1) || id === c.start + 1) gaps.push(`${consoles.indexOf(c)}: ${id}-`);
      if (seen.has(id + 1) || id === newest) gaps.push(`${gaps.pop() ?? ''}${id}`);
    }
    missed += lost;
    if (lost > 0) consolesMissing++;
  }
  return {
    events: newest - first,
    sends,
    resumes,
    missed,
    consolesMissing,
    doubled,
    outOfOrder,
    resets,
    gaps: gaps.slice(0, 10),
  };
}
