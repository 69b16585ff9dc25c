import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, errorBody, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from './errors';

export const MAX_BODY_BYTES = 1024 * 1024;

const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: true, type: () => true });

/**
 * Parses JSON bodies itself (Nest's parser is off) so that every failure is the error envelope:
 * a body that is not application/json is 415, one over 1 MiB is 413, malformed JSON is 400.
 */
export function jsonBody(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) {
      req.body = {};
      return next();
    }
    if (!req.is('application/json')) return send(res, new UnsupportedMediaTypeError());
    parseJson(req, res, (error?: unknown) => {
      if (error) return send(res, toBodyError(error));
      if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
        return send(res, new ValidationError('Request body must be a JSON object'));
      }
      next();
    });
  };
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function toBodyError(error: unknown): AppError {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') return new PayloadTooLargeError();
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new UnsupportedMediaTypeError();
  return new ValidationError('Malformed JSON body');
}

function send(res: Response, error: AppError): void {
  res.status(error.status).json(errorBody(error.code, error.message, error.details));
}
