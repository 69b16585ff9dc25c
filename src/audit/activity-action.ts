/**
 * What the activity log records, as the Activity page shows it (docs/api-decisions.md, "Activity"): what people
 * do in the console and the command line does to keys. A new kind of change adds its action here.
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
