import { INestApplication } from '@nestjs/common';
import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository';

/**
 * Resolves once the app's dispatcher has finished `rounds` claims that started after this call (each a poll or
 * a nudge). A test that asserts nothing more is sent waits on this instead of sleeping for a poll interval.
 */
export function dispatcherRounds(app: INestApplication, rounds = 2, timeoutMs = 10_000): Promise<void> {
  const repository = app.get(WebhookDeliveriesRepository);
  const claim = repository.claim.bind(repository);
  return new Promise<void>((resolve, reject) => {
    let finished = 0;
    const timer = setTimeout(() => {
      spy.mockRestore();
      reject(new Error(`the dispatcher finished ${finished} of ${rounds} claims in ${timeoutMs} ms`));
    }, timeoutMs);
    const spy = jest.spyOn(repository, 'claim').mockImplementation(async (...args) => {
      try {
        return await claim(...args);
      } finally {
        if (++finished === rounds) {
          clearTimeout(timer);
          spy.mockRestore();
          resolve();
        }
      }
    });
  });
}
