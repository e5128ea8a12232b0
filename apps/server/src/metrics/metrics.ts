import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type CollectFunction,
} from 'prom-client';
import type { TranslationMeter } from '../translation/metered-provider.js';

/** Names of the metric families (docs/grafana-dashboard.json reads them). */
const PREFIX = 'parley_';

/**
 * The server's Prometheus metrics, one registry per app (tests build several apps in one
 * process). What moves on each event is counted where it happens (requests, sockets' frames,
 * deliveries, engines); what is a state (backlogs, pools, sockets open) is read at scrape time.
 */
export class ParleyMetrics {
  readonly registry = new Registry();

  /** Per call: route pattern (never the raw URL), method, and the envelope's code or the HTTP status. */
  readonly requestDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time to answer a request, by route pattern, method and result code (the envelope code of a call, else the HTTP status)',
    labelNames: ['method', 'route', 'code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  /**
   * A team account's customer message after its commit (docs/decisions/2026-11-29-team-accounts.md):
   * routing it to a member (`routed`) or entering it in the queue (`queued`), in one transaction
   * that reads the team first. The bound is 5 ms of server time.
   */
  readonly teamRouting = new Histogram({
    name: `${PREFIX}team_routing_seconds`,
    help: 'Time to route (or queue) a team account chat after its message was stored, by result (routed, queued)',
    labelNames: ['result'] as const,
    // Fine around the bound (5 ms), so a percentile read from them says which side it is on.
    buckets: [0.0005, 0.001, 0.002, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });

  readonly loginFailures = new Counter({
    name: `${PREFIX}login_failures_total`,
    help: 'Refused logins, by reason (password, unknown_account, frozen)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly loginThrottled = new Counter({
    name: `${PREFIX}login_throttled_total`,
    help: 'Logins refused by the failed-login throttle (500003)',
    registers: [this.registry],
  });

  readonly pushEventsSent = new Counter({
    name: `${PREFIX}push_events_sent_total`,
    help: 'Event frames sent to push sockets, by event type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  readonly outboxDeliveries = new Counter({
    name: `${PREFIX}outbox_deliveries_total`,
    help: 'Outbox delivery attempts of this instance, by channel and outcome (delivered, retry, failed, cancelled)',
    labelNames: ['channel', 'result'] as const,
    registers: [this.registry],
  });

  readonly translationCalls = new Counter({
    name: `${PREFIX}translation_engine_calls_total`,
    help: 'Translation requests sent to an engine, by engine and result (ok, error)',
    labelNames: ['engine', 'result'] as const,
    registers: [this.registry],
  });

  readonly translationCharacters = new Counter({
    name: `${PREFIX}translation_engine_characters_total`,
    help: 'Characters sent to a translation engine (what paid engines bill), by engine',
    labelNames: ['engine'] as const,
    registers: [this.registry],
  });

  readonly translationMemoryHits = new Counter({
    name: `${PREFIX}translation_memory_hits_total`,
    help: 'Texts answered from the translation memory instead of an engine, by engine',
    labelNames: ['engine'] as const,
    registers: [this.registry],
  });

  readonly mediaStorageErrors = new Counter({
    name: `${PREFIX}media_storage_errors_total`,
    help: 'Writes the media store refused, by reason (full, read_only): each a 507001 / 507002',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly inboundRefused = new Counter({
    name: `${PREFIX}inbound_messages_refused_total`,
    help: "Customers' messages refused at the inbound door, by channel and reason (bad_shape, unknown_type, empty, no_seat, invalid)",
    labelNames: ['channel', 'reason'] as const,
    registers: [this.registry],
  });

  readonly inboundCleaned = new Counter({
    name: `${PREFIX}inbound_messages_cleaned_total`,
    help: "Customers' messages kept after the receive rules changed them, by channel and reason (nul_stripped, text_cut, name_cleaned)",
    labelNames: ['channel', 'reason'] as const,
    registers: [this.registry],
  });

  constructor() {
    // Event-loop lag, heap, GC, handles, CPU, open files: prom-client's defaults under their
    // usual names (nodejs_*, process_*), so the common Node.js dashboards read them as they are.
    collectDefaultMetrics({ register: this.registry });
    // Except three gauges named *_total (nodejs_active_handles_total, ..._requests_total,
    // ..._resources_total), which Prometheus reserves for counters (`promtool check metrics`
    // refuses them); their values are the sums of nodejs_active_handles etc. by type.
    for (const metric of this.registry.getMetricsAsArray()) {
      const { name, type } = metric as unknown as { name: string; type: string };
      if (type === 'gauge' && name.endsWith('_total')) this.registry.removeSingleMetric(name);
    }
  }

  /** What the translation service and its engines report (services.ts). */
  translationMeter(): TranslationMeter {
    return {
      engineCall: (engine, characters, ok) => {
        this.translationCalls.inc({ engine, result: ok ? 'ok' : 'error' });
        this.translationCharacters.inc({ engine }, characters);
      },
      memoryHits: (engine, texts) => this.translationMemoryHits.inc({ engine }, texts),
    };
  }

  /** A gauge whose values are set when it is scraped. */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: CollectFunction<Gauge<L>>,
  ): Gauge<L> {
    return new Gauge({
      name: `${PREFIX}${name}`,
      help,
      labelNames,
      collect,
      registers: [this.registry],
    });
  }
}

/**
 * `read` shared by the callers that come while it runs: the gauges of one scrape (collected
 * together) cost one query.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  return () => {
    running ??= read().finally(() => (running = null));
    return running;
  };
}
