import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Post, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { IS_PUBLIC } from './public.decorator';
import { ApiScope, requiredScope, RequiresScope, SCOPE_RULE, ScopeRule } from './scopes';

type Class = new (...args: never[]) => unknown;

interface Route {
  route: string;
  method: string;
  /** undefined: no rule declared; null: @NoScopeRequired. */
  scope: ApiScope | null | undefined;
}

/** Every route of the application's controllers that needs a key, and the scope its metadata asks for. */
function keyedRoutes(controllers: Class[]): Route[] {
  return controllers.flatMap((controller) => {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) as string);
    const controllerPublic = Reflect.getMetadata(IS_PUBLIC, controller) === true;
    const controllerRule = Reflect.getMetadata(SCOPE_RULE, controller) as ScopeRule | undefined;
    return Object.getOwnPropertyNames(controller.prototype).flatMap((name): Route[] => {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (typeof handler !== 'function') return [];
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (requestMethod === undefined) return [];
      if (controllerPublic || Reflect.getMetadata(IS_PUBLIC, handler) === true) return [];
      const method = RequestMethod[requestMethod];
      const path = String(Reflect.getMetadata(PATH_METADATA, handler) as string);
      const rule = (Reflect.getMetadata(SCOPE_RULE, handler) as ScopeRule | undefined) ?? controllerRule;
      return [
        {
          route: `${method} /${[base, path].filter((part) => part !== '/' && part !== '').join('/')}`,
          method,
          scope: rule ? requiredScope(rule, method) : undefined,
        },
      ];
    });
  });
}

/** Every controller class of src/, found by file name, so a new controller is checked without listing it. */
async function applicationControllers(): Promise<Class[]> {
  const root = join(__dirname, '..');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.controller.ts'),
  );
  const modules = await Promise.all(files.map((file) => import(join(root, file)) as Promise<Record<string, unknown>>));
  return modules.flatMap((exports) =>
    Object.values(exports).filter(
      (value): value is Class => typeof value === 'function' && Reflect.hasMetadata(PATH_METADATA, value),
    ),
  );
}

/** decisions.md, "Scoped API keys": the scope each route needs, from its path and method alone. */
function contractScope({ route, method }: Route): ApiScope | null {
  const path = route.slice(method.length + 1);
  if (path === '/me') return null;
  if (path.startsWith('/webhooks')) return 'webhooks';
  if (path.startsWith('/events')) return 'events';
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
