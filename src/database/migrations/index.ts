import { Foundation1763762400000 } from './1763762400000-foundation';
import { EmployeesSkillsRatings1763762500000 } from './1763762500000-employees-skills-ratings';
import { Positions1763762600000 } from './1763762600000-positions';
import { Webhooks1763762700000 } from './1763762700000-webhooks';
import { Performance1763762800000 } from './1763762800000-performance';
import { Events1763763000000 } from './1763763000000-events';
import { IdempotencyKeys1763763100000 } from './1763763100000-idempotency-keys';
import { UpdatedSinceIndexes1763763150000 } from './1763763150000-updated-since-indexes';
import { EmployeeCountSlots1763763200000 } from './1763763200000-employee-count-slots';
import { EmployeeSearch1763763300000 } from './1763763300000-employee-search';
import { IdempotencyClaim1763763400000 } from './1763763400000-idempotency-claim';
import { EmployeeSearchUpdatedIndex1763763500000 } from './1763763500000-employee-search-updated-index';
import { ApiKeyScopes1763763600000 } from './1763763600000-api-key-scopes';
import { KeptLatestRating1763763800000 } from './1763763800000-kept-latest-rating';
import { EventTraceparent1763763950000 } from './1763763950000-event-traceparent';
import { WebhookFanOut1763764000000 } from './1763764000000-webhook-fan-out';
import { EmployeeDetail1763764100000 } from './1763764100000-employee-detail';
import { InsertEmployees1763764200000 } from './1763764200000-insert-employees';
import { RecordEvents1763764300000 } from './1763764300000-record-events';
import { InsertRatingIfRateable1763764400000 } from './1763764400000-insert-rating-if-rateable';
import { SqlFunctionFiles1763764500000 } from './1763764500000-sql-function-files';
import { Console1763764600000 } from './1763764600000-console';
import { FairClaim1763764650000 } from './1763764650000-fair-claim';
import { DeliveryResponse1763764700000 } from './1763764700000-delivery-response';
import { InsertEmployeesConflicts1763764750000 } from './1763764750000-insert-employees-conflicts';
import { Privacy1763764800000 } from './1763764800000-privacy';
import { ClaimOwner1763764900000 } from './1763764900000-claim-owner';
import { Release4SqlFunctions1763765600000 } from './1763765600000-release-4-sql-functions';
import { SkillsCatalogue1763766000000 } from './1763766000000-skills-catalogue';
import { Versions1763766100000 } from './1763766100000-versions';
import { KeptResponseEvents1763766300000 } from './1763766300000-kept-response-events';
import { SkillVersions1763766400000 } from './1763766400000-skill-versions';
import { SkillSuggestions1763766500000 } from './1763766500000-skill-suggestions';
import { SkillsInGroups1763766700000 } from './1763766700000-skills-in-groups';
import { CatalogueVersions1763766800000 } from './1763766800000-catalogue-versions';
import { SkillSuggestionsV21763766900000 } from './1763766900000-skill-suggestions-v2';

/** Every migration in order; listed rather than globbed so ts-node, Jest and dist load the same set. */
export const MIGRATIONS = [
  Foundation1763762400000,
  EmployeesSkillsRatings1763762500000,
  Positions1763762600000,
  Webhooks1763762700000,
  Performance1763762800000,
  Events1763763000000,
  IdempotencyKeys1763763100000,
  UpdatedSinceIndexes1763763150000,
  EmployeeCountSlots1763763200000,
  EmployeeSearch1763763300000,
  IdempotencyClaim1763763400000,
  EmployeeSearchUpdatedIndex1763763500000,
  ApiKeyScopes1763763600000,
  KeptLatestRating1763763800000,
  EventTraceparent1763763950000,
  WebhookFanOut1763764000000,
  EmployeeDetail1763764100000,
  InsertEmployees1763764200000,
  RecordEvents1763764300000,
  InsertRatingIfRateable1763764400000,
  SqlFunctionFiles1763764500000,
  Console1763764600000,
  FairClaim1763764650000,
  DeliveryResponse1763764700000,
  InsertEmployeesConflicts1763764750000,
  Privacy1763764800000,
  ClaimOwner1763764900000,
  Release4SqlFunctions1763765600000,
  SkillsCatalogue1763766000000,
  Versions1763766100000,
  KeptResponseEvents1763766300000,
  SkillVersions1763766400000,
  SkillSuggestions1763766500000,
  SkillsInGroups1763766700000,
  CatalogueVersions1763766800000,
  SkillSuggestionsV21763766900000,
];
