import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, OperationObject } from '@nestjs/swagger';

/**
 * What an API key may do (docs/api-decisions.md, "Scoped API keys"; `privacy`: "Data protection"); a key made without
 * scopes has all five.
 */
export const API_SCOPES = ['read', 'write', 'webhooks', 'events', 'privacy'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export function isApiScope(value: string): value is ApiScope {
  return (API_SCOPES as readonly string[]).includes(value);
}

/** The scope a route needs: one for GET (and HEAD), one for the methods that change; null for none. */
export interface ScopeRule {
  get: ApiScope | null;
  change: ApiScope | null;
}

export const SCOPE_RULE = 'auth:scopeRule';
/** The same rule in the OpenAPI operation, where finishDocument turns it into a 403 and a sentence. */
export const SCOPE_RULE_EXTENSION = 'x-scope-rule';

function declareScopeRule(rule: ScopeRule) {
  return applyDecorators(SetMetadata(SCOPE_RULE, rule), ApiExtension(SCOPE_RULE_EXTENSION, rule));
}

/**
 * The scope every route of a controller (or one route) needs; with two, the first is for GET and the second
 * for POST, PUT, PATCH and DELETE, so a route added later to the controller is covered by what it does.
 */
export function RequiresScope(get: ApiScope, change: ApiScope = get) {
  return declareScopeRule({ get, change });
}

/** A route any valid key may call (GET /me): said outright, so no route lacks a scope by oversight. */
export function NoScopeRequired() {
  return declareScopeRule({ get: null, change: null });
}

/** The scope a request with `method` needs under `rule`. */
export function requiredScope(rule: ScopeRule, method: string): ApiScope | null {
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' ? rule.get : rule.change;
}

/**
 * The scope a secured OpenAPI operation needs, from its route's @RequiresScope (or @NoScopeRequired), whose
 * extension it removes from the document (finishDocument's `scopeOf`).
 */
export function operationScope(method: string, operation: OperationObject): ApiScope | null {
  const extensions = operation as OperationObject & Record<string, unknown>;
  const rule = extensions[SCOPE_RULE_EXTENSION] as ScopeRule | undefined;
  if (!rule)
    throw new Error(`${method.toUpperCase()} ${operation.operationId} needs @RequiresScope or @NoScopeRequired`);
  delete extensions[SCOPE_RULE_EXTENSION];
  return requiredScope(rule, method);
}
