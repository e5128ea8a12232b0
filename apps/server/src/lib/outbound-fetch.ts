import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Outbound GETs of a URL someone outside named (a channel's media URL), after OWASP's SSRF
 * advice: only to allowed hosts over https, the resolved addresses checked against loopback,
 * private, link-local and every other non-public range, the connection made to exactly the
 * address that was checked (no second lookup to rebind), redirects followed by hand and checked
 * again, and the credential sent only to the origin it was given for.
 */
export interface OutboundPolicy {
  /** Host names reached over https on port 443; `*.example.com`: any name under example.com. */
  readonly hosts: readonly string[];
  /**
   * Origins (scheme://host[:port]) reached as they are, without the address check: a local
   * server in tests or a proxy the operator runs. Empty by default.
   */
  readonly trustedOrigins: readonly string[];
}

/** A URL the policy does not allow, with the reason (for the log; never shown to a customer). */
export class OutboundRefused extends Error {
  constructor(
    readonly reason: string,
    readonly url: string,
  ) {
    super(`outbound fetch refused: ${reason}`);
  }
}

export const MAX_REDIRECTS = 3;

/** Why `address` is not a public unicast address (its ipaddr.js range), or null when it is. */
export function nonPublicRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  }
  const range = ip.range();
  return range === 'unicast' ? null : range;
}

function hostAllowed(host: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => {
    const pattern = p.toLowerCase();
    return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern;
  });
}

/** Whether the policy lets `url` be fetched, and whether its address is to be checked. */
function check(url: URL, policy: OutboundPolicy): { checkAddress: boolean } {
  if (url.username || url.password) throw new OutboundRefused('credentials in the URL', url.href);
  if (policy.trustedOrigins.includes(url.origin)) return { checkAddress: false };
  if (url.protocol !== 'https:')
    throw new OutboundRefused(`${url.protocol} is not https`, url.href);
  if (url.port !== '') throw new OutboundRefused(`port ${url.port} is not 443`, url.href);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!hostAllowed(host, policy.hosts)) {
    throw new OutboundRefused(`host ${host} is not allowed`, url.href);
  }
  if (isIP(host)) {
    const range = nonPublicRange(host);
    if (range) throw new OutboundRefused(`${host} is a ${range} address`, url.href);
  }
  return { checkAddress: true };
}

/**
 * A net.connect `lookup` that resolves with `resolve` and fails the connection when `refusal`
 * answers an error for the name's addresses; the socket then connects to one of the addresses
 * checked here (no second lookup for DNS to rebind). Shared by every outbound connection whose
 * address is checked (media downloads, Web Push).
 */
export function checkedLookup(
  refusal: (hostname: string, addresses: LookupAddress[]) => Error | null,
  resolve: typeof dnsLookup = dnsLookup,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, all) => {
      if (err) return callback(err, '', 0);
      const addresses = all as LookupAddress[];
      if (addresses.length === 0) return callback(new Error(`${hostname}: no address`), '', 0);
      const refused = refusal(hostname, addresses);
      if (refused) return callback(refused, '', 0);
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** Refuses a name any of whose addresses is not public. */
const publicOnlyLookup = checkedLookup((hostname, addresses) => {
  for (const a of addresses) {
    const range = nonPublicRange(a.address);
    if (range) {
      return new OutboundRefused(
        `${hostname} resolves to a ${range} address (${a.address})`,
        hostname,
      );
    }
  }
  return null;
});

function getOnce(
  url: URL,
  headers: Record<string, string>,
  checkAddress: boolean,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'GET',
      headers,
      signal,
      agent: false,
      ...(checkAddress ? { lookup: publicOnlyLookup } : {}),
    });
    req.once('response', resolve);
    req.once('error', (err) => {
      // The lookup's refusal comes back as the socket's error.
      reject(err instanceof OutboundRefused ? new OutboundRefused(err.reason, url.href) : err);
    });
    req.end();
  });
}

/**
 * GET `url` under `policy`, following up to MAX_REDIRECTS redirects (each checked again).
 * `credential` headers go only to the first URL's origin, never across a redirect to another.
 * Answers the final response (any status: the caller reads its error); throws OutboundRefused.
 */
export async function outboundGet(
  rawUrl: string,
  opts: {
    policy: OutboundPolicy;
    credential?: Record<string, string>;
    signal: AbortSignal;
  },
): Promise<IncomingMessage> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutboundRefused('not a URL', rawUrl.slice(0, 200));
  }
  const credentialOrigin = url.origin;
  for (let hop = 0; ; hop++) {
    const { checkAddress } = check(url, opts.policy);
    const headers = url.origin === credentialOrigin ? { ...opts.credential } : {};
    const res = await getOnce(url, headers, checkAddress, opts.signal);
    const location = res.headers.location;
    if (![301, 302, 303, 307, 308].includes(res.statusCode ?? 0) || !location) return res;
    res.resume();
    if (hop >= MAX_REDIRECTS) throw new OutboundRefused('too many redirects', url.href);
    try {
      url = new URL(location, url);
    } catch {
      throw new OutboundRefused('a redirect to no URL', url.href);
    }
  }
}
