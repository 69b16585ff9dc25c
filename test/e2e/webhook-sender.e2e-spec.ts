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
