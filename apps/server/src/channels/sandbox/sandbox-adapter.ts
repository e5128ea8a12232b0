import type { SandboxService } from './sandbox.service.js';
import type { ChannelAdapter, DeliveryResult, OutboundItem } from '../channel.js';

/** The customer sandbox as a channel: delivers into the sandbox's own store. */
export class SandboxAdapter implements ChannelAdapter {
  readonly channel = 'sandbox' as const;

  constructor(private readonly sandbox: SandboxService) {}

  async deliver(item: OutboundItem): Promise<DeliveryResult> {
    if (item.kind === 'delete') {
      await this.sandbox.retract(item.msgId);
      return { ok: true, externalId: item.externalId };
    }
    const row = await this.sandbox.deliver({
      msgId: item.msgId,
      account: item.account.send_phone,
      customer: item.receiverPhone,
      type: item.type,
      content: item.content,
      mediaId: item.media?.media_id ?? null,
      replyToMsgId: item.replyTo?.msgId ?? null,
    });
    return { ok: true, externalId: `sandbox-${row.id}` };
  }
}
