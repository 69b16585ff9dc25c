import { Agent, request } from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createSecureContext } from 'node:tls';
import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { BlockedAddressError, isPublicAddress, publicOnlyLookup } from './address-policy';
import { DeliveryOutcome } from './entities/webhook-delivery.entity';
import { signatureOf, standardSignature } from './signature';

/** Extra TLS trust for the webhook client; provided only by tests and the benchmark (a self-signed receiver). */
export const WEBHOOK_TLS_OPTIONS = Symbol('WEBHOOK_TLS_OPTIONS');

export interface WebhookTlsOptions {
  ca: string | Buffer;
}

export const WEBHOOK_USER_AGENT = 'skills-service-webhooks/1.0';

/**
 * How much of an answer's body is kept for the delivery's detail (docs/api-decisions.md, "Webhooks" in the console).
 */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface OutgoingDelivery {
  deliveryId: string;
  /** The webhook-id header: the same on every delivery of the event. */
  eventId: string;
  event: string;
  url: string;
  body: Buffer;
  /** The trace of the change that caused the event (W3C traceparent), or null. */
  traceparent: string | null;
  /** The HMAC keys: the endpoint's secret ("" without one) first, then a rotated-out secret still in its overlap. */
  secrets: readonly string[];
}

export interface SendResult {
  outcome: DeliveryOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The first RESPONSE_EXCERPT_BYTES of the answer's body as sent; null when no answer came. */
  responseExcerpt: Buffer | null;
}

/**
 * One POST per delivery, never retried, never following redirects (Node's client does not), bounded by
 * WEBHOOK_TIMEOUT_MS from the first byte dialled to the last byte of the answer.
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly agent: Agent;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(WEBHOOK_TLS_OPTIONS) tls?: WebhookTlsOptions,
  ) {
    this.agent = new Agent({
      // Reuse connections to busy receivers, but drop idle ones before a receiver's own keep-alive timeout does.
      keepAlive: true,
      timeout: 1000,
      // One TLS context for every connection: without it each new one builds its own from the trusted
      // certificates (~0.25 ms with the default roots, ~20 ms with a CA bundle), as receivers that close come back.
      secureContext: createSecureContext(tls ? { ca: tls.ca } : {}),
      lookup: config.webhookAllowPrivateNetworks ? undefined : publicOnlyLookup(),
    });
  }

  send(delivery: OutgoingDelivery): Promise<SendResult> {
    const started = performance.now();
    const result = (outcome: DeliveryOutcome, statusCode: number | null, error: string | null): SendResult => ({
      outcome,
      statusCode,
      error: error === null ? null : error.slice(0, 500),
      durationMs: Math.round(performance.now() - started),
      responseExcerpt: null,
    });

    const url = new URL(delivery.url);
    // A literal address is never looked up, so the lookup cannot vet it: vet it here.
    const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!this.config.webhookAllowPrivateNetworks && isIP(literal) && !isPublicAddress(literal)) {
      return Promise.resolve(result('refused', null, new BlockedAddressError(literal, literal).message));
    }

    const signedAt = new Date();
    return new Promise<SendResult>((resolve) => {
      /** The answer's status, once its head has come: the outcome, whatever becomes of its body. */
      let answer: SendResult | undefined;
      const excerpt: Buffer[] = [];
      let kept = 0;
      const settleAnswered = () => resolve({ ...answer!, responseExcerpt: Buffer.concat(excerpt, kept) });
      const timeoutMs = this.config.webhookTimeoutMs;
      const outgoing = request(
        url,
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': delivery.body.length,
            'User-Agent': WEBHOOK_USER_AGENT,
            'X-Service-Event': delivery.event,
            'X-Service-Delivery': delivery.deliveryId,
            'X-Service-Signature': signatureOf(delivery.body, delivery.secrets[0]),
            'webhook-id': delivery.eventId,
            'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
            'webhook-signature': standardSignature(delivery.eventId, signedAt, delivery.body, delivery.secrets),
            ...(delivery.traceparent === null ? {} : { traceparent: delivery.traceparent }),
          },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          answer = result(status >= 200 && status < 300 ? 'delivered' : 'failed', status, null);
          // Keep the body's first bytes and read the rest to its end, so the connection can be reused; the
          // deadline still bounds it. The outcome is settled once the excerpt is whole, or the body has ended.
          response.on('data', (chunk: Buffer) => {
            if (kept >= RESPONSE_EXCERPT_BYTES) return;
            const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept);
            excerpt.push(part);
            kept += part.length;
            if (kept >= RESPONSE_EXCERPT_BYTES) settleAnswered();
          });
          response.once('end', () => clearTimeout(deadline));
          // After the end, or when the body is cut short (the deadline, a reset): the answer stands either way.
          response.once('close', settleAnswered);
        },
      );
      const deadline = setTimeout(
        () => outgoing.destroy(Object.assign(new Error(`timed out after ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
        timeoutMs,
      );
      outgoing.once('error', (error) => {
        clearTimeout(deadline);
        if (answer) return settleAnswered();
        resolve(
          error instanceof BlockedAddressError
            ? result('refused', null, error.message)
            : result('failed', null, describe(error)),
        );
      });
      outgoing.end(delivery.body);
    });
  }

  onApplicationShutdown(): void {
    this.agent.destroy();
  }
}

function describe(error: Error & { code?: string }): string {
  return error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message;
}
