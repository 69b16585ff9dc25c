import { EndpointQueues, TakeLimits } from './endpoint-queues';

const NOW = 1_000_000;
/** Room for everything, nothing late, everything fresh. */
const OPEN: TakeLimits = { now: NOW, sendBy: 0, freshForMs: 50, slots: 100 };

const delivery = (id: string, endpointId = 'a') => ({ id, endpointId });
const ids = (deliveries: Array<{ id: string }>) => deliveries.map(({ id }) => id);

function queuesWith(perEndpoint: number, ...deliveries: Array<{ id: string; endpointId: string }>) {
  const queues = new EndpointQueues<{ id: string; endpointId: string }>(perEndpoint);
  for (const each of deliveries) queues.enqueue(each, NOW);
  return queues;
}

describe('EndpointQueues', () => {
  it('sends at most perEndpoint to one endpoint at once, and the next as a send ends', () => {
    const queues = queuesWith(2, delivery('1'), delivery('2'), delivery('3'));
    expect(ids(queues.take(OPEN).send)).toEqual(['1', '2']);
    expect(queues.queued).toBe(1);
    expect(ids(queues.take(OPEN).send)).toEqual([]);
    expect(queues.sendEnded('a')).toBe(3);
    expect(ids(queues.take(OPEN).send)).toEqual(['3']);
    expect(queues.queued).toBe(0);
  });

  it('serves endpoints in the order they came, within the free slots', () => {
    const queues = queuesWith(4, delivery('a1'), delivery('b1', 'b'), delivery('a2'), delivery('c1', 'c'));
    expect(ids(queues.take({ ...OPEN, slots: 3 }).send)).toEqual(['a1', 'a2', 'b1']);
    expect(ids(queues.take({ ...OPEN, slots: 3 }).send)).toEqual(['c1']);
  });

  it('gives back what was claimed too long ago to be sent before its claim goes stale', () => {
    const queues = queuesWith(1, delivery('1'), delivery('2'));
    const turn = queues.take({ ...OPEN, sendBy: NOW + 1 });
    expect({ send: ids(turn.send), late: ids(turn.late) }).toEqual({ send: [], late: ['1', '2'] });
    expect(queues.queued).toBe(0);
  });

  it('reads a queue read too long ago again before sending from it, and sends what is still held', () => {
    const queues = queuesWith(4, delivery('1'), delivery('2'), delivery('3'));
    const later = { ...OPEN, now: NOW + 51 };
    expect(queues.take(later)).toEqual({ send: [], late: [], reread: ['a'] });
    const read = queues.startReread('a');
    expect(ids(read)).toEqual(['1', '2', '3']);
    queues.enqueue(delivery('4'), NOW + 51);
    expect(queues.take(later).reread).toEqual([]);

    // '2' is no longer held (redelivered elsewhere, or its endpoint deleted); '4' came meanwhile.
    queues.finishReread('a', read, [delivery('1'), delivery('3')], NOW + 51);
    expect(queues.queued).toBe(3);
    expect(ids(queues.take(later).send)).toEqual(['1', '3', '4']);
  });

  it('leaves a queue whose reading failed as it was, to be read again', () => {
    const queues = queuesWith(4, delivery('1'));
    const later = { ...OPEN, now: NOW + 51 };
    queues.startReread('a');
    queues.abandonReread('a');
    expect(queues.take(later).reread).toEqual(['a']);
  });

  it('drains every queue on shutdown, keeping count of the sends under way', () => {
    const queues = queuesWith(1, delivery('1'), delivery('2'), delivery('b1', 'b'));
    queues.take({ ...OPEN, slots: 1 });
    expect(ids(queues.drain())).toEqual(['2', 'b1']);
    expect(queues.queued).toBe(0);
    expect(queues.sendEnded('a')).toBe(1);
  });
});
