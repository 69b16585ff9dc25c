import type { LookupAddress } from 'node:dns';
import { BlockedAddressError, isPublicAddress, publicOnlyLookup } from './address-policy';

describe('isPublicAddress', () => {
  it.each([
    ['93.184.216.34', 'public IPv4'],
    ['8.8.8.8', 'public IPv4'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public IPv4'],
  ])('allows %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'documentation'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'IPv6 unique-local'],
    ['fd12:3456::1', 'IPv6 unique-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
    ['64:ff9b::7f00:1', 'NAT64 translation'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['not-an-address', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('publicOnlyLookup', () => {
  const resolvingTo =
    (...addresses: string[]) =>
    (_host: string, _options: object, callback: (error: null, addresses: LookupAddress[]) => void) =>
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );

  const lookUp = (lookup: ReturnType<typeof publicOnlyLookup>, all: boolean) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) =>
      lookup('hooks.example', { all }, (error, address, family) => resolve({ error, address, family })),
    );

  it('passes public addresses through, in the shape the caller asked for', async () => {
    const lookup = publicOnlyLookup(resolvingTo('93.184.216.34', '2606:4700::1'));
    expect(await lookUp(lookup, false)).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect((await lookUp(lookup, true)).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1', family: 6 },
    ]);
  });

  it('refuses a host when any of its addresses is not public', async () => {
    const { error } = await lookUp(publicOnlyLookup(resolvingTo('93.184.216.34', '10.0.0.5')), true);
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(error?.message).toBe('destination hooks.example resolves to 10.0.0.5, which is not a public address');
  });

  it('passes resolver errors on', async () => {
    const failure = Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    const lookup = publicOnlyLookup((_host, _options, callback) => callback(failure, []));
    expect((await lookUp(lookup, false)).error).toBe(failure);
  });
});
