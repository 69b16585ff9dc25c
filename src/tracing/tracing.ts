/* eslint-disable @typescript-eslint/no-require-imports -- loaded lazily: without an endpoint none of it is read */
import type * as Api from '@opentelemetry/api';
import type * as OtlpExporter from '@opentelemetry/exporter-trace-otlp-proto';
import type * as ExpressInstrumentation from '@opentelemetry/instrumentation-express';
import type * as HttpInstrumentation from '@opentelemetry/instrumentation-http';
import type * as PgInstrumentation from '@opentelemetry/instrumentation-pg';
import type * as SdkNode from '@opentelemetry/sdk-node';
import { useTracing } from './trace-context';
import { redactUrl, splitTarget } from './url-redaction';

/**
 * Imported first by main.ts, before anything that loads http, express or pg: with OTEL_EXPORTER_OTLP_ENDPOINT
 * set, starts the OpenTelemetry SDK, whose instrumentations patch those modules as they load, and exports
 * spans over OTLP (HTTP, protobuf). The OTEL_* variables (service name, sampler, batch delay, headers) are
 * the SDK's own. Without the endpoint nothing is loaded, so the default start and request path pay nothing.
 */
/** The query parameters whose values a span's `url.query` leaves out: free text, which may name a person. */
const SEARCH_PARAMETERS = ['search'];

function startTracing(): void {
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof SdkNode;
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-proto') as typeof OtlpExporter;
  const { HttpInstrumentation: Http } = require('@opentelemetry/instrumentation-http') as typeof HttpInstrumentation;
  const { ExpressInstrumentation: Express } =
    require('@opentelemetry/instrumentation-express') as typeof ExpressInstrumentation;
  const { PgInstrumentation: Pg } = require('@opentelemetry/instrumentation-pg') as typeof PgInstrumentation;
  const { trace } = require('@opentelemetry/api') as typeof Api;

  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'skills-service',
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new Http({
        // A search may be a person's name or email (docs/api-decisions.md, "Data protection"): its value is not
        // exported.
        redactedQueryParamsServer: SEARCH_PARAMETERS,
        // Attributes the hook answers replace the instrumentation's own: a secret in the URL (url-redaction.ts,
        // the access log's rule too) never reaches `url.path` or `url.query`.
        startIncomingSpanHook: (request) => secretFreeUrlAttributes(request.url ?? ''),
      }),
      new Express(),
      new Pg(),
    ],
  });
  sdk.start();
  useTracing(
    () => trace.getActiveSpan()?.spanContext().traceId,
    () => sdk.shutdown(),
  );
}

/** `url.path` and `url.query` where redactUrl takes a secret out of them; nothing else, so the others stand. */
function secretFreeUrlAttributes(target: string): Record<string, string> {
  const url = splitTarget(target);
  const shown = redactUrl(url);
  const attributes: Record<string, string> = {};
  if (shown.path !== url.path) attributes['url.path'] = shown.path;
  if (shown.query !== undefined && shown.query !== url.query) attributes['url.query'] = shown.query;
  return attributes;
}

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) startTracing();
