import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { IS_PUBLIC } from '../../src/auth/public.decorator';

export type Class = new (...args: never[]) => unknown;

/** A route of a controller that needs a key: `GET /employees/:id`, its method, and where its metadata lives. */
export interface KeyedRoute {
  route: string;
  method: string;
  controller: Class;
  handler: object;
}

/** Every route of the given controllers that needs a key (not @Public()). */
export function keyedRoutes(controllers: Class[]): KeyedRoute[] {
  return controllers.flatMap((controller) => {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) as string);
    const controllerPublic = Reflect.getMetadata(IS_PUBLIC, controller) === true;
    return Object.getOwnPropertyNames(controller.prototype).flatMap((name): KeyedRoute[] => {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (typeof handler !== 'function') return [];
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (requestMethod === undefined) return [];
      if (controllerPublic || Reflect.getMetadata(IS_PUBLIC, handler) === true) return [];
      const method = RequestMethod[requestMethod];
      const path = String(Reflect.getMetadata(PATH_METADATA, handler) as string);
      return [
        {
          route: `${method} /${[base, path].filter((part) => part !== '/' && part !== '').join('/')}`,
          method,
          controller,
          handler,
        },
      ];
    });
  });
}

/** Every controller class of src/, found by file name, so a new controller is checked without listing it. */
export async function applicationControllers(): Promise<Class[]> {
  const root = join(__dirname, '..', '..', 'src');
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
