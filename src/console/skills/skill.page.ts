import type { SkillDetailResponse } from '../../skills/dto/skill.response';
import { barChart } from '../charts/bar-chart';
import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { signedInPage } from '../layout/layout';
import { groupLinks, SKILLS } from './skills.page';

/** How many active employees have each latest score (null: linked, never rated), as the API counts them. */
export type ScoreDistribution = ReadonlyArray<{ score: number | null; count: number }>;

function names(values: readonly string[]): Html {
  return values.length === 0 ? html`<span class="muted">none</span>` : html`${values.join(', ')}`;
}

function facts(skill: SkillDetailResponse): Html {
  const none = html`<span class="muted">none</span>`;
  return html`<dl class="facts">
    <dt>Aliases</dt>
    <dd class="break">${names(skill.aliases)}</dd>
    <dt>Hidden aliases</dt>
    <dd class="break">${names(skill.hiddenAliases)}</dd>
    <dt>Groups</dt>
    <dd class="break">${skill.groups.length === 0 ? none : groupLinks(skill.groups)}</dd>
    <dt>Source</dt>
    <dd class="break">${skill.source ?? none}</dd>
    <dt>External id</dt>
    <dd class="break">${skill.externalId ?? none}</dd>
    <dt>Scale</dt>
    <dd>${skill.ratingScaleMin} to ${skill.ratingScaleMax} (${skill.ratingScaleType.toLowerCase()})</dd>
    <dt>Employees</dt>
    <dd>${skill.employeeCount.toLocaleString('en')} active</dd>
  </dl>`;
}

/**
 * One bar per score of the skill's scale, long as the number of active employees whose latest score it is; a
 * score nobody has is a bar of 0, so the scale reads whole. Scores outside the scale (kept from before a change of
 * scale) get bars of their own, in order.
 */
function distributionChart(skill: SkillDetailResponse, distribution: ScoreDistribution): Html {
  const counts = new Map(distribution.filter(({ score }) => score !== null).map(({ score, count }) => [score!, count]));
  const scores = new Set<number>(counts.keys());
  for (let score = skill.ratingScaleMin; score <= skill.ratingScaleMax; score++) scores.add(score);
  const bars = [...scores]
    .sort((a, b) => a - b)
    .map((score) => ({ label: `Score ${score}`, value: counts.get(score) ?? 0 }));
  const unrated = distribution.find(({ score }) => score === null)?.count ?? 0;
  const rated = bars.reduce((sum, bar) => sum + bar.value, 0);
  return html`<section class="card chart-card" aria-labelledby="distribution-heading">
    <h2 id="distribution-heading">Latest scores</h2>
    <p class="muted">
      ${rated.toLocaleString('en')} active employee${rated === 1 ? '' : 's'} by their latest
      score${unrated === 0 ? '' : `; ${unrated.toLocaleString('en')} more linked, never rated`}.
    </p>
    ${barChart({
      id: 'distribution',
      title: `Active employees by latest score on ${skill.name}`,
      bars,
      max: Math.max(1, ...bars.map((bar) => bar.value)),
      headers: { label: 'Score', value: 'Employees' },
      noValue: 'none',
    })}
  </section>`;
}

/** A skill: its names and aliases, where it comes from, its groups, and how its active employees score. */
export function skillPage(viewer: ConsoleViewer, skill: SkillDetailResponse, distribution: ScoreDistribution): Html {
  return signedInPage(
    viewer,
    'Skills',
    skill.name,
    html`<p><a href="${SKILLS}">All skills and groups</a></p>
      ${skill.description === null ? '' : html`<p class="break">${skill.description}</p>`} ${facts(skill)}
      ${distributionChart(skill, distribution)}`,
  );
}
