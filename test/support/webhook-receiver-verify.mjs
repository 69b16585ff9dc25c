// Reads [{body, signature, secret}] as JSON on stdin, prints [true|false, ...]: verification by
// @octokit/webhooks-methods, independently of the service's own signing code.
import { verify } from '@octokit/webhooks-methods';

// HMAC pads a key shorter than the hash's block (64 bytes for SHA-256) with zero bytes (RFC 2104), so the
// empty key and 64 zero bytes are the same key. Octokit refuses an empty secret, so it gets the padded form.
const EMPTY_KEY_EQUIVALENT = '\u0000'.repeat(64);

let input = '';
for await (const chunk of process.stdin) input += chunk;
const checks = JSON.parse(input);
const results = [];
for (const { body, signature, secret } of checks) {
  results.push(
    signature === ''
      ? false
      : await verify(secret === null || secret === '' ? EMPTY_KEY_EQUIVALENT : secret, body, signature),
  );
}
process.stdout.write(JSON.stringify(results));
