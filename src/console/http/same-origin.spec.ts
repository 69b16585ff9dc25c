import { comesFromAnotherSite } from './same-origin';

const OWN = ['http://localhost:3000', 'https://skills.example.com'];

describe('comesFromAnotherSite', () => {
  it.each([
    [{ origin: 'http://localhost:3000' }, false],
    [{ origin: 'https://skills.example.com', 'sec-fetch-site': 'same-origin' }, false],
    [{ origin: 'HTTPS://SKILLS.EXAMPLE.COM' }, false],
    [{ origin: 'https://evil.example' }, true],
    // An Origin outranks Sec-Fetch-Site: a same-site sibling is another origin all the same.
    [{ origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }, true],
    [{ origin: 'http://localhost:3001' }, true],
    [{ 'sec-fetch-site': 'same-origin' }, false],
    [{ 'sec-fetch-site': 'same-site' }, true],
    [{ 'sec-fetch-site': 'cross-site' }, true],
    [{ 'sec-fetch-site': 'none' }, true],
    [{ origin: 'null', 'sec-fetch-site': 'same-origin' }, false],
    [{ origin: 'null', 'sec-fetch-site': 'cross-site' }, true],
    [{ origin: 'null' }, true],
    [{}, false],
  ])('%p is from another site: %p', (headers, expected) => {
    expect(comesFromAnotherSite(headers, OWN)).toBe(expected);
  });
});
