import { lookup } from 'node:dns/promises';
import { Injectable } from '@nestjs/common';

/** A resolved address of a webhook's host. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves webhooks' host names: the system's resolver, asked for every address. */
@Injectable()
export class WebhookResolver {
  async lookup(host: string): Promise<ResolvedAddress[]> {
    const answers = await lookup(host, { all: true, verbatim: true });
    return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
  }
}
