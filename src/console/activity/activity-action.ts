/**
 * What the activity log records, as the Activity page shows it (decisions.md, "Activity"). The console's pages
 * and the command line record these; a new page adds its actions here.
 */
export const ACTIVITY_ACTIONS = [
  'sign-in',
  'failed sign-in',
  'sign-out',
  'password chosen',
  'person invited',
  'welcome link made',
  'person removed',
  'role changed',
  'single sign-on set',
  'single sign-on removed',
  'key created',
  'key revoked',
  'endpoint added',
  'endpoint deleted',
  'secret rotated',
  'test event',
  'redelivery',
  'personal data exported',
  'employee erased',
] as const;

export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** Who did it when no person of the console did: the operator's command line. */
export const CLI_ACTOR = 'cli';
