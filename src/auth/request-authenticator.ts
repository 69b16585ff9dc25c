import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { onPrimary } from '../database/read-route';
import { ApiKeysService, AuthenticatedKey } from './api-keys.service';

export interface AuthenticatedRequest extends Request {
  /** Resolved once per request: the key and its organisation, or null when the key is missing or invalid. */
  auth?: AuthenticatedKey | null;
}

const BEARER = /^bearer +([^\s]+) *$/i;

/** Resolves the bearer key of a request once, for both the rate limit and the key guard. */
@Injectable()
export class RequestAuthenticator {
  constructor(private readonly apiKeys: ApiKeysService) {}

  async resolve(request: AuthenticatedRequest): Promise<AuthenticatedKey | null> {
    if (request.auth === undefined) {
      const match = BEARER.exec(request.headers.authorization ?? '');
      // On the primary even when the request reads on a replica: a key made a moment ago works at once.
      request.auth = match ? await onPrimary(() => this.apiKeys.authenticate(match[1])) : null;
    }
    return request.auth;
  }
}
