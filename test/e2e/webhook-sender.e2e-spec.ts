import type { ServerResponse } from 'node:http';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import tls from 'node:tls';
import type { AppConfig } from '../../src/config/config';
import { WebhookSender } from '../../src/webhooks/webhook-sender';
import { testCertificate } from '../support/tls';

/** The webhook client's TLS set-up, against a receiver that closes every connection after its answer. */
describe('WebhookSender', () => {
  let receiver: Server;
  let url: string;

  beforeAll(async () => {
    const { key, cert } = testCertificate();
    receiver = createServer({ key, cert }, (_request, response) => {
      response.writeHead(204, { Connection: 'close' });
      response.end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  it('builds its TLS context once, not once per connection', async () => {
    const config = { webhookAllowPrivateNetworks: true, webhookTimeoutMs: 5000 } as AppConfig;
    const sender = new WebhookSender(config, { ca: testCertificate().cert });
    const contexts = jest.spyOn(tls, 'createSecureContext');
    try {
      const outcomes: string[] = [];
      for (let n = 0; n < 3; n++) {
        const sent = await sender.send({
          deliveryId: `delivery-${n}`,
          eventId: 'event',
          event: 'skill.rated',
          url,
          body: Buffer.from('{}'),
          traceparent: null,
          secrets: ['whsec_test'],
        });
        outcomes.push(sent.outcome);
      }
      expect(outcomes).toEqual(['delivered', 'delivered', 'delivered']);
      expect(contexts).not.toHaveBeenCalled();
    } finally {
      contexts.mockRestore();
      sender.onApplicationShutdown();
    }
  });
});

/** What the sender keeps of an answer's body for the console's delivery detail. */
describe('WebhookSender: the answer excerpt', () => {
  let receiver: Server;
  let origin: string;
  const stalls = new Set<ServerResponse>();

  beforeAll(async () => {
    const { key, cert } = testCertificate();
    receiver = createServer({ key, cert }, (request, response) => {
      request.resume();
      request.on('end', () => {
        if (request.url === '/empty') return response.writeHead(204).end();
        if (request.url === '/long') return response.writeHead(200).end('a'.repeat(5000));
        // The head and a few bytes, then nothing until the sender's deadline.
        response.writeHead(502);
        response.write('half an answer');
        stalls.add(response);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stalls.forEach((response) => response.destroy());
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it.each([
    ['/empty', 'delivered', 204, ''],
    ['/long', 'delivered', 200, 'a'.repeat(1024)],
    ['/stall', 'failed', 502, 'half an answer'],
  ])('keeps the first 1 KiB of the body of %s, and the answer stands', async (path, outcome, status, excerpt) => {
    const config = { webhookAllowPrivateNetworks: true, webhookTimeoutMs: 1000 } as AppConfig;
    const sender = new WebhookSender(config, { ca: testCertificate().cert });
    try {
      const sent = await sender.send({
        deliveryId: 'delivery',
        eventId: 'event',
        event: 'skill.rated',
        url: `${origin}${path}`,
        body: Buffer.from('{}'),
        traceparent: null,
        secrets: [''],
      });
      expect(sent).toMatchObject({ outcome, statusCode: status, error: null });
      expect(sent.responseExcerpt?.toString('utf8')).toBe(excerpt);
    } finally {
      sender.onApplicationShutdown();
    }
  });
});
