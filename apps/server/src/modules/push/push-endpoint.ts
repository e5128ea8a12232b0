import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import ipaddr from 'ipaddr.js';
import { ERROR_CODES } from '@parley/protocol';
import type { PushConfig } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import { checkedLookup, nonPublicRange } from '../../lib/outbound-fetch.js';

/**
 * Where Web Push traffic may go (OWASP's SSRF rules, for the push services only): an https URL
 * without credentials, at a host of PARLEY_PUSH_HOSTS (or a subdomain of one), resolving to
 * public unicast addresses only unless PARLEY_PUSH_PRIVATE_HOSTS names that host. Checked when
 * a subscription is stored (a coded refusal) and again at every connection (`agent`'s lookup),
 * so a name that later resolves to a private address is never sent to (DNS rebinding).
 * The address rules and the checked lookup are the outbound-fetch guard's (lib/outbound-fetch.ts).
 */
export type EndpointRefusal = 'not_https' | 'host_not_allowed' | 'private_address';

export const DEFAULT_PUSH_CONFIG: PushConfig = {
  hosts: [
    'fcm.googleapis.com',
    'updates.push.services.mozilla.com',
    'push.apple.com',
    'notify.windows.com',
  ],
  privateHosts: [],
  caFile: null,
};

export function refused(reason: EndpointRefusal): AppError {
  return new AppError(ERROR_CODES.PUSH_ENDPOINT_REFUSED, undefined, { reason });
}

/** A public unicast address (not private, loopback, link-local, CGNAT, multicast, ...). */
export const isPublicAddress = (address: string): boolean => nonPublicRange(address) === null;

const matches = (host: string, list: string[]) =>
  list.some((h) => host === h || host.endsWith(`.${h}`));

export class PushEndpoints {
  /** Connections to the push services: every address checked as it is resolved. */
  readonly agent: Agent;

  constructor(
    private readonly config: PushConfig = DEFAULT_PUSH_CONFIG,
    private readonly resolve: typeof dnsLookup = dnsLookup,
  ) {
    this.agent = new Agent({
      keepAlive: true,
      // Every connection's addresses checked as they are resolved (DNS rebinding).
      lookup: checkedLookup((hostname, addresses) => {
        const host = hostname.toLowerCase();
        if (matches(host, this.config.hosts) && this.addressesAllowed(host, addresses)) return null;
        return Object.assign(new Error(`push host ${hostname} resolves to a refused address`), {
          code: 'EPUSHREFUSED',
        });
      }, resolve),
      ...(config.caFile ? { ca: readFileSync(config.caFile) } : {}),
    });
  }

  /** The host of an endpoint the rules allow (its addresses are checked by `checkResolved`). */
  checkUrl(endpoint: string): string {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw refused('not_https');
    }
    if (url.protocol !== 'https:') throw refused('not_https');
    if (url.username || url.password) throw refused('host_not_allowed');
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (ipaddr.isValid(host)) {
      // An address literal: only a public one, and then only if the list names it.
      if (!isPublicAddress(host)) throw refused('private_address');
    }
    if (!matches(host, this.config.hosts)) throw refused('host_not_allowed');
    return host;
  }

  /** Every address the host resolves to is allowed (a subscription's check; also at send). */
  async checkResolved(host: string): Promise<void> {
    const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
      this.resolve(host, { all: true }, (err, list) => (err ? reject(err) : resolve(list))),
    ).catch(() => [] as LookupAddress[]);
    // A name that does not resolve now cannot be checked: refused like a private one.
    if (addresses.length === 0) throw refused('private_address');
    if (!this.addressesAllowed(host, addresses)) throw refused('private_address');
  }

  private addressesAllowed(host: string, addresses: LookupAddress[]): boolean {
    if (matches(host, this.config.privateHosts)) return true;
    return addresses.every((a) => isPublicAddress(a.address));
  }
}
