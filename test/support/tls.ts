import { DynamicModule, Global, Module } from '@nestjs/common';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEBHOOK_TLS_OPTIONS } from '../../src/webhooks/webhook-sender';

export interface TestCertificate {
  key: string;
  cert: string;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made now with openssl, valid for a day. */
export function makeSelfSignedCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
        '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Makes the app's webhook client trust the test receiver's certificate (and nothing else). */
@Global()
@Module({})
export class TrustCertificateModule {
  static of(certificate: TestCertificate): DynamicModule {
    return {
      module: TrustCertificateModule,
      providers: [{ provide: WEBHOOK_TLS_OPTIONS, useValue: { ca: certificate.cert } }],
      exports: [WEBHOOK_TLS_OPTIONS],
    };
  }
}
