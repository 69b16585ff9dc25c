import { Foundation1763762400000 } from './1763762400000-foundation';
import { EmployeesSkillsRatings1763762500000 } from './1763762500000-employees-skills-ratings';
import { Positions1763762600000 } from './1763762600000-positions';
import { Webhooks1763762700000 } from './1763762700000-webhooks';
import { Performance1763762800000 } from './1763762800000-performance';

/** Every migration in order; listed rather than globbed so ts-node, Jest and dist load the same set. */
export const MIGRATIONS = [Foundation1763762400000, EmployeesSkillsRatings1763762500000, Positions1763762600000, Webhooks1763762700000, Performance1763762800000];
