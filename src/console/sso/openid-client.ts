/**
 * openid-client (v6) is an ECMAScript module: the compiled CommonJS service loads it with import(), only when
 * an organisation's people sign on, so neither start-up nor Jest (whose module system cannot load it) ever
 * needs it otherwise.
 */
// typescript-eslint reads the import attribute as a value it cannot type; tsc checks the type itself.
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
export type OpenIdClient = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });

let loading: Promise<OpenIdClient> | undefined;

export function openIdClient(): Promise<OpenIdClient> {
  loading ??= import('openid-client');
  return loading;
}
