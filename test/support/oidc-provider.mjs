// A real OpenID Connect provider (the oidc-provider package) over HTTPS on 127.0.0.1, for the console's single
// sign-on tests; run as a process of its own (oidc-provider is an ECMAScript module, which Jest cannot load).
// Its development login page signs in whoever names an email there; the ID token carries that email.
// Environment: TLS_KEY and TLS_CERT (PEM), CLIENT_ID, CLIENT_SECRET, REDIRECT_URI. Prints {"issuer"} once ready.
import { createServer } from 'node:https';
import Provider from 'oidc-provider';

const { TLS_KEY, TLS_CERT, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI } = process.env;
const server = createServer({ key: TLS_KEY, cert: TLS_CERT });
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `https://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  findAccount: async (_ctx, id) => ({
    accountId: id,
    claims: async () => ({ sub: id, email: id, email_verified: true }),
  }),
  pkce: { required: () => true },
  cookies: { keys: ['a test key of the provider, made up for the test'] },
  features: { devInteractions: { enabled: true } },
});
server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
