import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import express, { Request, Response } from 'express';
import { AppError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../errors/errors';
import { findInputProblem } from './input-checks';

export const MAX_BODY_BYTES = 1024 * 1024;

const SKIP_INPUT = 'input:skip';

/** For a route that answers without reading its input (the unknown-route 404). */
export const SkipInput = () => SetMetadata(SKIP_INPUT, true);

const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: true, type: () => true });

/**
 * The third check of every request, after the rate limit and the key (docs/api-decisions.md, "Order of checks"):
 * only now is the body read. A body that is not application/json is 415, one over 1 MiB is 413,
 * malformed JSON or a JSON value other than an object is 400; then the body and the query string must
 * hold nothing a field may not (findInputProblem), else 400 naming the field. Validation of the DTOs
 * comes after, in the ValidationPipe.
 */
@Injectable()
export class RequestInputGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(SKIP_INPUT, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<Request>();
    assertClean(request.query);
    request.body = await readJsonBody(request, context.switchToHttp().getResponse<Response>());
    return true;
  }
}

async function readJsonBody(request: Request, response: Response): Promise<object> {
  if (!hasBody(request)) return {};
  if (!request.is('application/json')) throw new UnsupportedMediaTypeError();
  await new Promise<void>((resolve, reject) =>
    parseJson(request, response, (error?: unknown) => (error ? reject(toBodyError(error)) : resolve())),
  );
  const body: unknown = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('Request body must be a JSON object');
  }
  assertClean(body);
  return body;
}

function assertClean(input: object): void {
  const problem = findInputProblem(input);
  if (problem) throw ValidationError.forField(problem.field, problem.message);
}

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function toBodyError(error: unknown): AppError {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') return new PayloadTooLargeError();
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new UnsupportedMediaTypeError();
  return new ValidationError('Malformed JSON body');
}
