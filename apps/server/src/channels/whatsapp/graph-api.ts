import type { Readable } from 'node:stream';
import { outboundGet, type OutboundPolicy } from '../../lib/outbound-fetch.js';

/**
 * Meta's Graph API as the WhatsApp Cloud API uses it, at the version this client follows:
 * v21.0 (https://developers.facebook.com/docs/whatsapp/cloud-api/reference). Every call
 * carries the system user's token as `Authorization: Bearer`; a refusal answers
 * `{ error: { message, type, code, error_subcode, fbtrace_id } }`.
 */
export const GRAPH_API_VERSION = 'v21.0';

/**
 * Where `GET /{media-id}`'s `url` may point: Meta's media hosts ("Retrieve Media URL" /
 * "Download Media", Cloud API reference: lookaside.fbsbx.com, and Meta's CDNs under
 * whatsapp.net and fbcdn.net), over https only.
 */
export const META_MEDIA_HOSTS = ['lookaside.fbsbx.com', '*.whatsapp.net', '*.fbcdn.net'] as const;

/** The shape of the ids Graph issues (media, phone numbers, business accounts): digits. */
export const GRAPH_ID = /^[0-9]{1,32}$/;

/** A refusal of the Graph API, with Meta's error code (190: token expired or revoked). */
export class GraphApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly subcode: number | null,
    readonly graphMessage: string,
    readonly details: string | null,
  ) {
    super(`Graph API error ${code}${subcode ? `/${subcode}` : ''}: ${graphMessage}`);
  }

  /** The token expired, was revoked, or lost its permission: nothing works until it is replaced. */
  get tokenInvalid(): boolean {
    return this.code === 190 || this.code === 102;
  }

  /**
   * Worth trying again later: rate limits (4, 80007, 130429, 131056), temporary failures (1,
   * 2, 131000, 133004) and Meta's own 5xx. Everything else (190, 100, 131026, 131047, ...)
   * will not change by retrying.
   */
  get retryable(): boolean {
    return (
      this.status >= 500 || [1, 2, 4, 17, 80007, 130429, 131000, 131056, 133004].includes(this.code)
    );
  }
}

interface GraphErrorBody {
  error?: {
    message?: string;
    code?: number;
    error_subcode?: number;
    error_data?: { details?: string };
  };
}

export class GraphApi {
  constructor(
    /** Without the version: https://graph.facebook.com (a local server in tests). */
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly timeoutMs = 30_000,
    /** Where a media URL may lead (download): Meta's media hosts unless configured. */
    private readonly mediaPolicy: OutboundPolicy = { hosts: META_MEDIA_HOSTS, trustedOrigins: [] },
  ) {}

  /** `<base>/<version>/<segments, each encoded>[?query]`: an id can never become a path or query. */
  private url(segments: readonly string[], query: Record<string, string> = {}): string {
    const path = segments.map((s) => encodeURIComponent(s)).join('/');
    const search = new URLSearchParams(query).toString();
    return `${this.baseUrl.replace(/\/+$/, '')}/${GRAPH_API_VERSION}/${path}${search ? `?${search}` : ''}`;
  }

  private async request<T>(url: string, init: RequestInit, timeoutMs = this.timeoutMs): Promise<T> {
    const res = await fetch(url, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        authorization: `Bearer ${this.token}`,
      },
      // Graph answers its calls itself: a redirect would take the token elsewhere.
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!res.ok) throw errorOf(res.status, body as GraphErrorBody | null, text);
    return body as T;
  }

  get<T>(segments: readonly string[], query?: Record<string, string>): Promise<T> {
    return this.request<T>(this.url(segments, query), { method: 'GET' });
  }

  post<T>(segments: readonly string[], body: unknown): Promise<T> {
    return this.request<T>(this.url(segments), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  /** POST /{phone-number-id}/media: multipart `file`, `type`, `messaging_product`. */
  upload(
    phoneNumberId: string,
    file: { bytes: Buffer; mime: string; fileName: string },
  ): Promise<{ id: string }> {
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', file.mime);
    form.set('file', new Blob([file.bytes], { type: file.mime }), file.fileName);
    return this.request<{ id: string }>(
      this.url([phoneNumberId, 'media']),
      { method: 'POST', body: form },
      120_000,
    );
  }

  /**
   * A media's bytes from the URL GET /{media-id} gave (Meta's lookaside needs the token too):
   * only from the media policy's hosts, the token only to that URL's origin (outbound-fetch.ts).
   * Throws OutboundRefused for a URL the policy does not allow.
   */
  async download(url: string): Promise<Readable> {
    const res = await outboundGet(url, {
      policy: this.mediaPolicy,
      credential: { authorization: `Bearer ${this.token}` },
      signal: AbortSignal.timeout(120_000),
    });
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 299) {
      const text = await readSome(res, 4096);
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      throw errorOf(status, body as GraphErrorBody | null, text);
    }
    return res;
  }
}

/** Up to `max` bytes of an error's body, as text; the rest is dropped with the connection. */
async function readSome(res: Readable, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= max) break;
    }
  } catch {
    // a cut error body: what came is enough
  }
  res.destroy();
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

function errorOf(status: number, body: GraphErrorBody | null, text: string): GraphApiError {
  const e = body?.error;
  return new GraphApiError(
    status,
    typeof e?.code === 'number' ? e.code : status,
    typeof e?.error_subcode === 'number' ? e.error_subcode : null,
    (e?.message ?? text.slice(0, 200)) || `HTTP ${status}`,
    e?.error_data?.details ?? null,
  );
}
