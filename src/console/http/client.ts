import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import ipaddr from 'ipaddr.js';
import { APP_CONFIG, AppConfig } from '../../config/config';

/** Where a console request came from, as far as the connection and the trusted proxies tell. */
export interface ClientFacts {
  /** The client's address for the activity log. */
  address: string;
  /** Reached over HTTPS: by TLS on this socket, or per X-Forwarded-Proto from a trusted proxy. */
  https: boolean;
}

/**
 * Believes X-Forwarded-Proto and X-Forwarded-For only from the proxies CONSOLE_TRUSTED_PROXIES names (addresses
 * or CIDR ranges), the nearest first, as Express's "trust proxy" would; the API's requests never ask it.
 */
@Injectable()
export class ClientFactsReader {
  private readonly trusted: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.trusted = config.consoleTrustedProxies.map((range) => ipaddr.parseCIDR(range));
  }

  read(request: Request): ClientFacts {
    const peer = request.socket.remoteAddress ?? '';
    const encrypted = 'encrypted' in request.socket && request.socket.encrypted === true;
    if (!this.isTrusted(peer)) return { address: normalise(peer), https: encrypted };
    const proto = firstValue(request.headers['x-forwarded-proto']);
    // The nearest hop not of a trusted proxy is the client; a chain of trusted proxies is walked back.
    const forwarded = (firstHeader(request.headers['x-forwarded-for']) ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => ipaddr.isValid(hop));
    let address = peer;
    for (let hop = forwarded.length - 1; hop >= 0 && this.isTrusted(address); hop--) address = forwarded[hop];
    return { address: normalise(address), https: encrypted || proto?.toLowerCase() === 'https' };
  }

  private isTrusted(address: string): boolean {
    if (this.trusted.length === 0 || !ipaddr.isValid(address)) return false;
    const parsed = ipaddr.process(address);
    return this.trusted.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
  }
}

/** An IPv4 address as such, not as ::ffff:a.b.c.d. */
function normalise(address: string): string {
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return firstHeader(value)?.split(',')[0].trim();
}
