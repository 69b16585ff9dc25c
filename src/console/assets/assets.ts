import { createHash } from 'node:crypto';
import { CONSOLE_JS } from './script';
import { CONSOLE_CSS } from './stylesheet';

export interface ConsoleAsset {
  /** Named by its content's hash, so it can be cached for good: a new version has a new name. */
  path: string;
  contentType: string;
  body: Buffer;
}

function asset(name: string, extension: string, contentType: string, text: string): ConsoleAsset {
  const body = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/console/assets/${name}.${hash}.${extension}`, contentType, body };
}

/** Kept in the code rather than as files, so the build (tsc) and every way of running serve the same bytes. */
export const STYLESHEET = asset('console', 'css', 'text/css; charset=utf-8', CONSOLE_CSS);
export const SCRIPT = asset('console', 'js', 'text/javascript; charset=utf-8', CONSOLE_JS);

export const ASSETS: readonly ConsoleAsset[] = [STYLESHEET, SCRIPT];
