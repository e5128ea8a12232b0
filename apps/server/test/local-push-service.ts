import { execFileSync } from 'node:child_process';
import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A push service as browsers' are (RFC 8030 "Generic Event Delivery Using HTTP Push", section
 * 5: POST to the subscription's endpoint, 201 Created with a Location) that checks the VAPID
 * authorization (RFC 8292: `vapid t=<ES256 JWT>, k=<key>`, `aud` the endpoint's origin) and
 * keeps each message's encrypted body (RFC 8188 aes128gcm, keys of RFC 8291). A test decrypts
 * it with the browser's side, `PushDevice`, as a user agent would.
 */
export interface DeliveredPush {
  path: string;
  ttl: string | undefined;
  urgency: string | undefined;
  encoding: string | undefined;
  /** The `k` of the VAPID authorization (the application server's public key). */
  vapidKey: string;
  body: Buffer;
}

export class LocalPushService {
  readonly delivered: DeliveredPush[] = [];
  /** Answers of an endpoint path other than 201 (e.g. 410 Gone: the subscription expired). */
  readonly answers = new Map<string, number>();
  private server: Server | null = null;
  private dir = '';
  origin = '';
  /** The self-signed certificate's PEM (PARLEY_PUSH_CA_FILE). */
  caFile = '';

  async start(): Promise<this> {
    this.dir = mkdtempSync(path.join(tmpdir(), 'parley-push-'));
    const key = path.join(this.dir, 'key.pem');
    this.caFile = path.join(this.dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        this.caFile,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    this.server = createServer(
      { key: readFileSync(key), cert: readFileSync(this.caFile) },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const url = req.url ?? '/';
          const vapidKey = checkVapid(req.headers.authorization, this.origin);
          if (req.method !== 'POST' || !vapidKey) {
            res.writeHead(req.method !== 'POST' ? 405 : 403).end();
            return;
          }
          const answer = this.answers.get(url);
          if (answer) {
            res.writeHead(answer).end();
            return;
          }
          this.delivered.push({
            path: url,
            ttl: req.headers.ttl as string | undefined,
            urgency: req.headers.urgency as string | undefined,
            encoding: req.headers['content-encoding'],
            vapidKey,
            body: Buffer.concat(chunks),
          });
          res.writeHead(201, { location: `${this.origin}/message/${this.delivered.length}` }).end();
        });
      },
    );
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `https://localhost:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Waits until `n` messages arrived (or fails after `ms`). */
  async waitFor(n: number, ms = 5_000): Promise<DeliveredPush[]> {
    const until = Date.now() + ms;
    while (this.delivered.length < n) {
      if (Date.now() > until) throw new Error(`${this.delivered.length} pushes, not ${n}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.delivered;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
    this.server?.closeAllConnections();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The `k` of a valid VAPID authorization for `origin` (RFC 8292 section 2, 3), else null. */
function checkVapid(header: string | undefined, origin: string): string | null {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) return null;
  const [jwt, k] = [m[1]!, m[2]!];
  const [h, p, s] = jwt.split('.');
  if (!h || !p || !s) return null;
  const head = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  if (head.alg !== 'ES256' || claims.aud !== origin || !claims.sub) return null;
  if (!claims.exp || claims.exp * 1000 < Date.now() || claims.exp * 1000 > Date.now() + 86_400_000)
    return null;
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key: rawP256(Buffer.from(k, 'base64url')), dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  return ok ? k : null;
}

function rawP256(raw: Buffer) {
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** The browser's side of a subscription: its P-256 key pair and auth secret (RFC 8291). */
export class PushDevice {
  private readonly ecdh: ECDH = createECDH('prime256v1');
  readonly auth = randomBytes(16);
  readonly publicKey: Buffer;

  constructor(readonly endpoint: string) {
    this.publicKey = this.ecdh.generateKeys();
  }

  /** The subscription as PushSubscription.toJSON() gives it. */
  subscription() {
    return {
      endpoint: this.endpoint,
      keys: {
        p256dh: this.publicKey.toString('base64url'),
        auth: this.auth.toString('base64url'),
      },
    };
  }

  /** RFC 8291 section 3.4 and RFC 8188 section 2: the plaintext of one aes128gcm message. */
  decrypt(body: Buffer): string {
    const salt = body.subarray(0, 16);
    const rs = body.readUInt32BE(16);
    const idlen = body[20]!;
    const asPublic = body.subarray(21, 21 + idlen);
    const record = body.subarray(21 + idlen);
    if (record.length > rs) throw new Error('one record expected');
    const ecdhSecret = this.ecdh.computeSecret(asPublic);
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), this.publicKey, asPublic]);
    const ikm = hmac(hmac(this.auth, ecdhSecret), Buffer.concat([keyInfo, Buffer.from([1])]));
    const prk = hmac(salt, ikm);
    const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
    const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([
      decipher.update(record.subarray(0, record.length - 16)),
      decipher.final(),
    ]);
    // The last record's delimiter is 0x02, then zero padding.
    const end = padded.lastIndexOf(2);
    if (end < 0 || padded.subarray(end + 1).some((b) => b !== 0)) throw new Error('bad padding');
    return padded.subarray(0, end).toString('utf8');
  }
}
