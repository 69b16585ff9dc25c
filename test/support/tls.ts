import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { WEBHOOK_TLS_OPTIONS } from '../../src/webhooks/webhook-sender';

export interface TestCertificate {
  key: string;
  cert: string;
}

/** Writes key.pem and cert.pem into `dir`: a self-signed certificate for 127.0.0.1 and localhost, made now with openssl. */
export function writeSelfSignedCertificate(dir: string, days: number): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      String(days),
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
}

/** A self-signed certificate for 127.0.0.1 and localhost, made now, valid for a day. */
export function makeSelfSignedCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
  try {
    writeSelfSignedCertificate(dir, 1);
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CERTIFICATE_ENV = { key: 'TEST_TLS_KEY', cert: 'TEST_TLS_CERT' } as const;

/** Made once per run by the global setup and shared through the workers' environment. */
export function shareTestCertificate(): void {
  const certificate = makeSelfSignedCertificate();
  process.env[CERTIFICATE_ENV.key] = certificate.key;
  process.env[CERTIFICATE_ENV.cert] = certificate.cert;
}

/** The run's one receiver certificate, made once by the global setup for every file. */
export function testCertificate(): TestCertificate {
  const key = process.env[CERTIFICATE_ENV.key];
  const cert = process.env[CERTIFICATE_ENV.cert];
  if (!key || !cert) throw new Error('The global setup shares the test certificate');
  return { key, cert };
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
