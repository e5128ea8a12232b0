import type { PlatformOutbound } from '@parley/protocol';
import { signedHeaders } from './platform-signature.js';
import type { ChannelAdapter, DeliveryResult, OutboundItem } from '../channel.js';

async function base64Of(item: Extract<OutboundItem, { kind: 'message' }>) {
  if (!item.media) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await item.media.open()) chunks.push(chunk as Buffer);
  return {
    data: Buffer.concat(chunks).toString('base64'),
    mime: item.media.mime,
    file_name: item.media.file_name,
    duration_ms: item.media.duration_ms,
  };
}

/**
 * The messaging platform: each item is POSTed as JSON to PARLEY_PLATFORM_URL, signed like the
 * inbound API, with Parley's message id as idempotency key (delivery is at-least-once; the
 * platform drops a key it has seen). 2xx: delivered to the platform (its `external_id` kept);
 * network errors, 408, 429 and 5xx are retried; other 4xx are final.
 */
export class PlatformAdapter implements ChannelAdapter {
  readonly channel = 'platform' as const;

  constructor(private readonly options: { url: string; secret: string; timeoutMs: number }) {}

  async deliver(item: OutboundItem): Promise<DeliveryResult> {
    const common = {
      idempotency_key: `parley-${item.msgId}-${item.kind}`,
      msg_id: item.msgId,
      account: item.account.send_phone,
      customer: item.receiverPhone,
    };
    const payload: PlatformOutbound =
      item.kind === 'message'
        ? {
            kind: 'message',
            ...common,
            type: item.type,
            content: item.content,
            media: await base64Of(item),
            reply_to: item.replyTo
              ? { msg_id: item.replyTo.msgId, external_id: item.replyTo.externalId }
              : null,
          }
        : { kind: 'delete', ...common, external_id: item.externalId };
    const body = JSON.stringify(payload);
    let res: Response;
    try {
      res = await fetch(this.options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': payload.idempotency_key,
          ...signedHeaders(this.options.secret, body),
        },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (err) {
      return { ok: false, retryable: true, error: `network: ${(err as Error).message}` };
    }
    const text = await res.text().catch(() => '');
    if (res.ok) {
      let externalId: string | null = null;
      try {
        const parsed = JSON.parse(text) as { external_id?: unknown };
        if (typeof parsed.external_id === 'string') externalId = parsed.external_id.slice(0, 128);
      } catch {
        // an empty or non-JSON answer is still a success
      }
      return { ok: true, externalId };
    }
    const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
    const retryAfter = Number(res.headers.get('retry-after'));
    return {
      ok: false,
      retryable,
      error: `HTTP ${res.status} ${text.slice(0, 200)}`.trim(),
      ...(retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
    };
  }
}
