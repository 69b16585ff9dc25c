import { applyDecorators, Controller, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { Public } from '../../auth/public.decorator';
import { SkipInput } from '../../http/request-input.guard';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { ConsoleGuard } from './console.guard';
import { ConsolePageInterceptor } from './page.interceptor';

/**
 * A controller of console pages under /console/<path>. The API's global guards let it through on metadata they
 * read for every request anyway (no key: @Public; no API rate limit: @SkipThrottle; no JSON body: @SkipInput),
 * so the console adds no work to an API request; its own guard, error pages and the interceptor that sends
 * every answer (page.interceptor.ts) are bound here, to its routes only. Not in the OpenAPI document.
 */
export function ConsoleController(path = ''): ClassDecorator {
  return applyDecorators(
    Controller(path === '' ? 'console' : `console/${path}`),
    ApiExcludeController(),
    Public(),
    SkipThrottle(),
    SkipInput(),
    UseGuards(ConsoleGuard),
    UseFilters(ConsoleExceptionFilter),
    UseInterceptors(ConsolePageInterceptor),
  );
}
