import { SetMetadata } from '@nestjs/common';

export const SKIP_RATE_LIMIT = 'rateLimit:skip';

/** Health checks are polled by orchestrators and must never be refused. */
export const SkipRateLimit = () => SetMetadata(SKIP_RATE_LIMIT, true);
