import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { defer, lastValueFrom, Observable } from 'rxjs';
import { IS_PUBLIC } from '../auth/public.decorator';
import { AuthenticatedRequest } from '../auth/request-authenticator';
import { toErrorResponse } from '../common/all-exceptions.filter';
import { AppError, ConflictError, ErrorBody, IdempotencyKeyReusedError, ValidationError } from '../common/errors';
import { Database } from '../database/database';
import { IdempotencyKeysRepository, KeptResponse } from './idempotency-keys.repository';
import { RequestFingerprints } from './request-fingerprint';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_REPLAYED_HEADER = 'Idempotency-Replayed';
const KEPT_FOR_MS = 24 * 60 * 60 * 1000;
const KEY = /^[\x20-\x7e]{1,255}$/;
/** A request with the key is still running: ask again in this many seconds. */
const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

type Outcome = { replay: KeptResponse } | { value: unknown } | { error: unknown };

/** A request with an Idempotency-Key: whose key it is, what it is, and when it is kept until. */
interface Claim {
  organisationId: string;
  key: string;
  fingerprint: string;
  now: Date;
  expiresAt: Date;
  response: Response;
}

/**
 * Safe retries (decisions.md, "Safe retries"): a POST under /api/v1 with an Idempotency-Key runs in one
 * transaction that claims the key, runs the route (its own transactions join it) and keeps the response, so
 * the change and the kept response commit together or not at all: a crash between them cannot leave a
 * change whose retry runs it again. A later request with the key replays the response
 * (`Idempotency-Replayed: true`), or is 422 when it is a different request, or 409 while the first runs.
 * A route's 4xx rolls its writes back and is kept on its own; a 5xx keeps nothing, so a retry runs again.
 * The rate limit, the key and the body checks come before. The claim travels with BEGIN and the kept
 * response with COMMIT (BatchedTransaction): a keyed POST costs no more round trips than one without.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly database: Database,
    private readonly keys: IdempotencyKeysRepository,
    private readonly fingerprints: RequestFingerprints,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (request.method !== 'POST' || key === undefined || isPublic) return next.handle();
    if (typeof key !== 'string' || !KEY.test(key)) {
      throw ValidationError.forField(
        IDEMPOTENCY_KEY_HEADER,
        'Idempotency-Key must be 1 to 255 printable ASCII characters',
      );
    }
    return defer(() => this.runOnce(context, next, key));
  }

  private async runOnce(context: ExecutionContext, next: CallHandler, key: string): Promise<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const now = new Date();
    const claim: Claim = {
      organisationId: request.auth!.organisationId,
      key,
      fingerprint: this.fingerprints.of(request.method, request.path, request.body),
      now,
      expiresAt: new Date(now.getTime() + KEPT_FOR_MS),
      response,
    };

    const outcome = await this.once(claim, async () => {
      const ran: Outcome = await lastValueFrom<unknown, null>(next.handle(), { defaultValue: null }).then(
        (value: unknown) => ({ value }),
        (error: unknown) => ({ error }),
      );
      // A failed route keeps nothing here: its transaction rolls back, and with it what the route wrote.
      if ('error' in ran) return { outcome: ran };
      return { outcome: ran, answer: { statusCode: this.successStatus(context), body: ran.value } };
    });

    if ('replay' in outcome) return this.replay(outcome.replay, claim);
    if ('value' in outcome) return outcome.value;
    const { status, body } = toErrorResponse(outcome.error);
    if (status >= 500) throw outcome.error;
    // Its 4xx answer is kept in a transaction of its own, unless another request with the key kept one meanwhile.
    const kept = await this.once(claim, () => Promise.resolve({ outcome, answer: { statusCode: status, body } }));
    if ('replay' in kept) return this.replay(kept.replay, claim);
    throw outcome.error;
  }

  /**
   * One transaction holding the key: the response kept for it when there is one (409 while another request
   * with the key runs); else what `attempt` gives, its answer kept with its changes. Without an answer
   * nothing commits.
   */
  private once(
    claim: Claim,
    attempt: () => Promise<{ outcome: Outcome; answer?: { statusCode: number; body: unknown } }>,
  ): Promise<Outcome> {
    const { organisationId, key, fingerprint, now, expiresAt, response } = claim;
    return this.database.requestTransaction(async (transaction) => {
      const { claimed, kept } = await this.keys.claim(organisationId, key, now, transaction);
      if (!claimed) {
        response.setHeader('Retry-After', IN_FLIGHT_RETRY_AFTER_SECONDS);
        throw new ConflictError('A request with this Idempotency-Key is still running; retry shortly');
      }
      if (kept) return { replay: kept };
      const { outcome, answer } = await attempt();
      if (answer) {
        const keptResponse = { fingerprint, statusCode: answer.statusCode, body: JSON.stringify(answer.body) };
        await this.keys.keep(organisationId, key, keptResponse, now, expiresAt, transaction);
      }
      return outcome;
    });
  }

  /** A POST answers 201 unless its route declares another status. */
  private successStatus(context: ExecutionContext): number {
    return this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
  }

  private replay(kept: KeptResponse, { fingerprint, response }: Claim): unknown {
    if (kept.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
    response.setHeader(IDEMPOTENCY_REPLAYED_HEADER, 'true');
    const body = JSON.parse(kept.body) as unknown;
    if (kept.statusCode < 400) return body;
    // The filter writes an AppError's envelope exactly as the kept one, with the kept status.
    const { error } = body as ErrorBody;
    throw new AppError(kept.statusCode, error.code, error.message, error.details);
  }
}
