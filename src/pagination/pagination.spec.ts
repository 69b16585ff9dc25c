import { buildPaginationMeta } from './pagination';

describe('buildPaginationMeta', () => {
  it('has no pages when there are no rows', () => {
    expect(buildPaginationMeta(0, 1, 20)).toEqual({
      total: 0,
      page: 1,
      limit: 20,
      totalPages: 0,
      hasNextPage: false,
      hasPrevPage: false,
    });
  });

  it('counts an exact multiple of the limit without an empty last page', () => {
    expect(buildPaginationMeta(40, 2, 20)).toMatchObject({ totalPages: 2, hasNextPage: false, hasPrevPage: true });
  });

  it('counts a last partial page', () => {
    expect(buildPaginationMeta(41, 2, 20)).toMatchObject({ totalPages: 3, hasNextPage: true, hasPrevPage: true });
    expect(buildPaginationMeta(41, 3, 20)).toMatchObject({ totalPages: 3, hasNextPage: false });
  });

  it('keeps a page past the end as asked, with no next page', () => {
    expect(buildPaginationMeta(5, 9, 20)).toEqual({
      total: 5,
      page: 9,
      limit: 20,
      totalPages: 1,
      hasNextPage: false,
      hasPrevPage: true,
    });
  });
});
