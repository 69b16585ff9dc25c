import { CoalescedSend } from './coalesced-send';

describe('CoalescedSend', () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('sends once for the asks that come while a send is on its way, and never twice at once', async () => {
    let running = 0;
    let mostAtOnce = 0;
    const finishers: Array<() => void> = [];
    const send = jest.fn(() => {
      mostAtOnce = Math.max(mostAtOnce, ++running);
      return new Promise<void>((resolve) => finishers.push(() => resolve(void running--)));
    });
    const coalesced = new CoalescedSend(send);

    coalesced.ask();
    for (let i = 0; i < 10; i++) coalesced.ask();
    expect(send).toHaveBeenCalledTimes(1);
    finishers.shift()!();
    await settle();
    expect(send).toHaveBeenCalledTimes(2);
    finishers.shift()!();
    await settle();
    expect(send).toHaveBeenCalledTimes(2);
    expect(mostAtOnce).toBe(1);
  });

  it('sends again after a failed send', async () => {
    const send = jest.fn().mockRejectedValueOnce(new Error('connection lost')).mockResolvedValue(undefined);
    const coalesced = new CoalescedSend(send);
    coalesced.ask();
    await settle();
    coalesced.ask();
    await settle();
    expect(send).toHaveBeenCalledTimes(2);
  });
});
