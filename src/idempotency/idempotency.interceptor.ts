import type { IncomingMessage } from 'node:http';
import { CallHandler, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { defer, lastValueFrom, Observable } from 'rxjs';
import type { EntityManager } from 'typeorm';
import { AuthenticatedRequest } from '../auth/request-authenticator';
import { Database } from '../database/database';
import { setRequestTransaction } from '../database/write-context';
import { AppError, ConflictError, ErrorBody, IdempotencyKeyReusedError, ValidationError } from '../errors/errors';
import { toErrorResponse } from '../http/all-exceptions.filter';
import { Enveloped, successEnvelope } from '../http/envelope';
import { OptionalInterceptor, UseOptionalInterceptor } from '../http/optional-interceptor';
import { IdempotencyKeysRepository, KeptResponse } from './idempotency-keys.repository';
import { RequestFingerprints, RequestIdentity } from './request-fingerprint';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const KEY_HEADER = IDEMPOTENCY_KEY_HEADER.toLowerCase();
export const IDEMPOTENCY_REPLAYED_HEADER = 'Idempotency-Replayed';
const KEPT_FOR_MS = 24 * 60 * 60 * 1000;
const KEY = /^[\x20-\x7e]{1,255}$/;
/** A request with the key is still running: ask again in this many seconds. */
const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

type Outcome = { replay: KeptResponse } | { value: unknown } | { error: unknown };

/** Carries the route's error out of its transaction, which it rolls back, to the keyed answer. */
class RouteFailed extends Error {
  constructor(cause: unknown) {
    super('The route failed', { cause });
  }
}

/** A request with an Idempotency-Key: whose key it is, what it is, and when it is kept until. */
interface Claim {
  organisationId: string;
  key: string;
  identity: RequestIdentity;
  now: Date;
  expiresAt: Date;
  response: Response;
}

/**
 * Safe retries (docs/api-decisions.md, "Safe retries"): a POST under /api/v1 with an Idempotency-Key runs in one
 * transaction that claims the key, runs the route (its own transactions join it) and keeps the response, so
 * the change and the kept response commit together or not at all: a crash between them cannot leave a
 * change whose retry runs it again. A later request with the key replays the response
 * (`Idempotency-Replayed: true`), or is 422 when it is a different request, or 409 while the first runs.
 * A route's 4xx rolls its writes back and is kept on its own; a 5xx keeps nothing, so a retry runs again.
 * The rate limit, the key and the body checks come before. The route gets the transaction through
 * `@Write()` (database/write-context.ts). The claim is one statement (lock, then look-up), and the kept response
 * travels with COMMIT (Database.sendWithCommit): a keyed POST costs one round trip more than one without.
 * Bound to each POST route by `@Idempotent()`, not globally, and optional (http/optional-interceptor.ts): only a
 * request with the key runs it, so no other request pays for an interceptor.
 */
@Injectable()
export class IdempotencyInterceptor implements OptionalInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly database: Database,
    private readonly keys: IdempotencyKeysRepository,
    private readonly fingerprints: RequestFingerprints,
  ) {}

  appliesTo(request: IncomingMessage): boolean {
    return request.headers[KEY_HEADER] !== undefined;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Bound by @Idempotent() to keyed POST routes only (idempotent.spec.ts), and run for a request with the key.
    const key = request.headers[KEY_HEADER];
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
      identity: this.fingerprints.of(request.method, request.path, request.body),
      now,
      expiresAt: new Date(now.getTime() + KEPT_FOR_MS),
      response,
    };

    const outcome = await this.once(claim, async (manager) => {
      setRequestTransaction(request, manager);
      const value = await lastValueFrom<unknown, null>(next.handle(), { defaultValue: null });
      return {
        outcome: { value },
        answer: { statusCode: this.successStatus(context), body: successEnvelope(value) },
      };
    });

    if ('replay' in outcome) return this.replay(outcome.replay, claim);
    if ('value' in outcome) return outcome.value;
    const { status, body } = toErrorResponse(outcome.error);
    if (status >= 500) throw outcome.error;
    // Its 4xx answer is kept in a transaction of its own, unless another request with the key kept one meanwhile.
    const kept = await this.once(claim, async () => ({ outcome, answer: { statusCode: status, body } }));
    if ('replay' in kept) return this.replay(kept.replay, claim);
    throw outcome.error;
  }

  /**
   * One transaction holding the key: the response kept for it when there is one (409 while another request
   * with the key runs); else what `attempt` gives, its answer kept with its changes. When `attempt` throws
   * (the route failed), its writes roll back and the error is the outcome.
   */
  private async once(
    claim: Claim,
    attempt: (manager: EntityManager) => Promise<{ outcome: Outcome; answer: { statusCode: number; body: unknown } }>,
  ): Promise<Outcome> {
    const { organisationId, key, identity, now, expiresAt, response } = claim;
    try {
      return await this.database.transaction(async (manager): Promise<Outcome> => {
        const { claimed, kept } = await this.keys.claim(organisationId, key, now, manager);
        if (!claimed) {
          response.setHeader('Retry-After', IN_FLIGHT_RETRY_AFTER_SECONDS);
          throw new ConflictError('A request with this Idempotency-Key is still running; retry shortly');
        }
        if (kept) return { replay: kept };
        const { outcome, answer } = await attempt(manager).catch((error: unknown) => {
          throw new RouteFailed(error);
        });
        const keptResponse = {
          fingerprint: identity.fingerprint,
          statusCode: answer.statusCode,
          body: JSON.stringify(answer.body),
        };
        this.keys.keep(organisationId, key, keptResponse, now, expiresAt, manager);
        return outcome;
      });
    } catch (error) {
      if (error instanceof RouteFailed) return { error: error.cause };
      throw error;
    }
  }

  /** A POST answers 201 unless its route declares another status. */
  private successStatus(context: ExecutionContext): number {
    return this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
  }

  private replay(kept: KeptResponse, { identity, response }: Claim): unknown {
    if (!identity.sameAs(kept.fingerprint)) throw new IdempotencyKeyReusedError();
    response.setHeader(IDEMPOTENCY_REPLAYED_HEADER, 'true');
    const body = JSON.parse(kept.body) as unknown;
    if (kept.statusCode < 400) return new Enveloped(body);
    // The filter writes an AppError's envelope exactly as the kept one, with the kept status.
    const { error } = body as ErrorBody;
    throw new AppError(kept.statusCode, error.code, error.message, error.details);
  }
}

/** On every POST route under /api/v1: an Idempotency-Key makes it safe to retry (idempotent.spec.ts checks each has it). */
export const Idempotent = () => UseOptionalInterceptor(IdempotencyInterceptor);
