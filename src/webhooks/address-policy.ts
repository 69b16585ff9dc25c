import * as dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Whether a webhook may connect to this address: only public unicast. Loopback, private, link-local,
 * unique-local, multicast, unspecified, carrier-grade NAT, documentation and translation ranges are not.
 * An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().range() === 'unicast';
  return ipv6.match(IPV6_GLOBAL_UNICAST) && ipv6.range() === 'unicast';
}

/** Raised instead of connecting when a webhook host is, or resolves to, a non-public address. */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';

  constructor(host: string, address: string) {
    super(
      host === address
        ? `destination ${address} is not a public address`
        : `destination ${host} resolves to ${address}, which is not a public address`,
    );
  }
}

type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for sockets that resolves the host and refuses it when ANY of its addresses is not public.
 * It runs at connect time, for the address actually dialled, so DNS rebinding cannot slip past a check made earlier.
 */
export function publicOnlyLookup(resolve: Resolver = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
      if (blocked) return callback(new BlockedAddressError(hostname, blocked.address), '');
      if (addresses.length === 0)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
