export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');
