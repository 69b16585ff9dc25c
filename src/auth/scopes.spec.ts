import { Controller, Get, Post } from '@nestjs/common';
import { applicationControllers, Class, keyedRoutes as routesOf } from '../../test/support/application-routes';
import { ApiScope, requiredScope, RequiresScope, SCOPE_RULE, ScopeRule } from './scopes';

interface Route {
  route: string;
  method: string;
  /** undefined: no rule declared; null: @NoScopeRequired. */
  scope: ApiScope | null | undefined;
}

/** Every route of the controllers that needs a key, and the scope its metadata asks for. */
function keyedRoutes(controllers: Class[]): Route[] {
  return routesOf(controllers).map(({ route, method, controller, handler }) => {
    const rule =
      (Reflect.getMetadata(SCOPE_RULE, handler) as ScopeRule | undefined) ??
      (Reflect.getMetadata(SCOPE_RULE, controller) as ScopeRule | undefined);
    return { route, method, scope: rule ? requiredScope(rule, method) : undefined };
  });
}

/**
 * docs/api-decisions.md, "Scoped API keys" and "Data protection": the scope each route needs, from its path and method
 * alone.
 */
function contractScope({ route, method }: Route): ApiScope | null {
  const path = route.slice(method.length + 1);
  if (path === '/me') return null;
  if (/^\/employees\/:id\/(erase|personal-data)$/.test(path)) return 'privacy';
  if (path.startsWith('/webhooks')) return 'webhooks';
  if (path.startsWith('/events') || path.endsWith('/history')) return 'events';
  // A POST that changes nothing: it reads the catalogue.
  if (path === '/skills/resolve') return 'read';
  return method === 'GET' ? 'read' : 'write';
}

describe('route scopes', () => {
  let routes: Route[];
  beforeAll(async () => {
    routes = keyedRoutes(await applicationControllers());
  });

  it('finds the routes of every controller', () => {
    expect(routes.map(({ route }) => route)).toEqual(
      expect.arrayContaining(['GET /employees', 'POST /webhooks', 'GET /events', 'GET /me', 'GET /positions/:id']),
    );
  });

  it('declares a scope (or none, outright) on every route that needs a key', () => {
    expect(routes.filter(({ scope }) => scope === undefined).map(({ route }) => route)).toEqual([]);
  });

  it('asks each route for the scope the contract names', () => {
    const wrong = routes.filter((route) => route.scope !== contractScope(route));
    expect(wrong).toEqual([]);
  });

  it('reports a route without a declared scope, and one whose declared scope differs from the contract', () => {
    @Controller('webhooks')
    class Undeclared {
      @Get() list() {}
    }
    @RequiresScope('read', 'write')
    @Controller('webhooks')
    class Misdeclared {
      @Post() create() {}
    }
    const [undeclared, misdeclared] = keyedRoutes([Undeclared, Misdeclared]);
    expect(undeclared).toEqual({ route: 'GET /webhooks', method: 'GET', scope: undefined });
    expect(misdeclared.scope).not.toBe(contractScope(misdeclared));
  });
});
