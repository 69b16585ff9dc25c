import { changesBetween } from './changes';

describe('changesBetween', () => {
  it('lists each altered field with its previous and current value, updatedAt left out', () => {
    const before: Record<string, string | null> = {
      id: 'a',
      name: 'Go',
      title: null,
      hiredAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '1',
    };
    const after = { id: 'a', name: 'Go', title: 'Lead', hiredAt: null, updatedAt: '2' };
    expect(changesBetween(before, after)).toEqual({
      title: { previous: null, current: 'Lead' },
      hiredAt: { previous: '2026-01-01T00:00:00.000Z', current: null },
    });
  });

  it('is empty when nothing but updatedAt differs', () => {
    expect(changesBetween({ a: 1, updatedAt: '1' }, { a: 1, updatedAt: '2' })).toEqual({});
  });
});
