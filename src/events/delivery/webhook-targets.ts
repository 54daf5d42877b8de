import { isIP } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { isRefusedAddress } from './address-check.js';
import { WebhookResolver, type ResolvedAddress } from './webhook-resolver.js';

/** A webhook URL that may not be sent to; its message says why. */
export class RefusedTargetError extends Error {}

/** Where a message goes: the URL, and the checked address its connection is made to. */
export interface CheckedTarget {
  url: URL;
  address: ResolvedAddress;
}

const MAX_URL_LENGTH = 2048;

/**
 * The SSRF guard of webhooks: a URL's scheme, and every address its host resolves to, checked
 * at creation and again before each delivery; the connection is then made to the address
 * checked, so that an answer that changes in between (DNS rebinding) is never reached.
 */
@Injectable()
export class WebhookTargets {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly resolver: WebhookResolver,
  ) {}

  /** The URL's own faults (scheme, form), without resolving it; null when none. */
  urlFault(text: string): string | null {
    if (text.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return 'must be an absolute URL';
    }
    const allowHttp = this.config.webhooks.allowHttp;
    if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
      return allowHttp ? 'must start with https:// or http://' : 'must start with https://';
    }
    if (url.username !== '' || url.password !== '') return 'must not hold credentials';
    if (url.hostname === '') return 'must name a host';
    return null;
  }

  /** The URL's checked address; RefusedTargetError when it may not be sent to. */
  check(text: string): Promise<CheckedTarget> {
    return this.forDeliveries(text)();
  }

  /**
   * check() for a run of deliveries to one URL: its form checked once, its host resolved and
   * its addresses checked at each call; a host that is an address is checked once (its answer
   * cannot change).
   */
  forDeliveries(text: string): () => Promise<CheckedTarget> {
    const fault = this.urlFault(text);
    if (fault !== null) return () => Promise.reject(new RefusedTargetError(`url ${fault}`));
    const url = new URL(text);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const family = isIP(host);
    if (family === 0) return () => this.resolved(url, host);
    let checked: Promise<CheckedTarget> | null = null;
    return () =>
      (checked ??= this.checked(url, host, [{ address: host, family: family === 6 ? 6 : 4 }]));
  }

  private async resolved(url: URL, host: string): Promise<CheckedTarget> {
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolver.lookup(host);
    } catch {
      throw new RefusedTargetError(`url host ${host} does not resolve`);
    }
    return this.checked(url, host, addresses);
  }

  private checked(url: URL, host: string, addresses: ResolvedAddress[]): Promise<CheckedTarget> {
    if (addresses.length === 0) {
      return Promise.reject(new RefusedTargetError(`url host ${host} does not resolve`));
    }
    if (!this.config.webhooks.allowPrivate) {
      const refused = addresses.find(({ address }) => isRefusedAddress(address));
      if (refused) {
        return Promise.reject(
          new RefusedTargetError(
            `url host ${host} resolves to ${refused.address}, a loopback, private or link-local address`,
          ),
        );
      }
    }
    return Promise.resolve({ url, address: addresses[0] });
  }
}
