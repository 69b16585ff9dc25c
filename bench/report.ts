import type { WaitCount } from './waits';

/** One measured run of a scenario: BENCH_ROUNDS of them per row, so the noise shows. */
export interface Round {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** CPU time of the server's process per request (user + system, ms), when it could be read. */
  cpuMsPerRequest?: number;
  /** CPU time of every PostgreSQL process of the machine per request (ms): the database's share of the cores. */
  postgresCpuMsPerRequest?: number;
  /** The service's (or the floor's) req/s over the raw baseline's of the same round. */
  ratioToBaseline: number | null;
  /** The service's req/s over the framework floor's of the same round. */
  ratioToFloor: number | null;
  /** The service's req/s over the stack floor's of the same round (issue 51). */
  ratioToStack?: number | null;
  /** What the target's connections waited on (write scenarios only). */
  waits?: WaitCount[];
}

export interface Row {
  scenario: string;
  /**
   * The service, the raw baseline (bench/baseline-server.ts), that handler behind bare NestJS (framework-floor.ts),
   * or the stack floor (stack-floor.ts: the design card's pieces, nothing of ours).
   */
  target: 'service' | 'baseline' | 'floor' | 'stack';
  connections: number;
  rounds: Round[];
}

export interface WebhookRow {
  measure: string;
  deliveries: number;
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  badSignatures: number;
}

/** Instructions per request (callgrind, bench/instructions.ts) of one server under one scenario, per round. */
export interface InstructionRow {
  scenario: string;
  target: Row['target'];
  /** Per round; each round counts every target once, one after the other. */
  perRequest: number[];
}

export interface Target {
  target: string;
  measured: string;
  met: boolean;
}

/** bench/results/latest.json (and embedded.json): what bench/chart.ts draws. */
export interface Report {
  at: string;
  profile: 'full' | 'embedded';
  machine: Record<string, unknown>;
  settings: Record<string, unknown>;
  rows: Row[];
  webhooks: WebhookRow[];
  /** Absent when no scenario's instructions were counted. */
  instructions?: InstructionRow[];
  targets: Target[];
}

/**
 * Sets each service round's ratios to the raw baseline's, the floor's and the stack floor's round of the same
 * number, and each floor's round's to the raw baseline's (what NestJS and Express cost, what the stack costs).
 */
export function addRatios(rows: Row[]): void {
  const reference = (row: Row, target: Row['target']) =>
    rows.find(
      (candidate) =>
        candidate.target === target && candidate.scenario === row.scenario && candidate.connections === row.connections,
    );
  const ratio = (round: Round, base: Round | undefined) =>
    base?.requestsPerSecond ? Math.round((round.requestsPerSecond / base.requestsPerSecond) * 100) / 100 : null;
  for (const row of rows.filter((candidate) => candidate.target !== 'baseline')) {
    const [baseline, floor, stack] = [
      reference(row, 'baseline'),
      row.target === 'service' || row.target === 'stack' ? reference(row, 'floor') : undefined,
      row.target === 'service' ? reference(row, 'stack') : undefined,
    ];
    row.rounds.forEach((round, index) => {
      round.ratioToBaseline = ratio(round, baseline?.rounds[index]);
      round.ratioToFloor = ratio(round, floor?.rounds[index]);
      round.ratioToStack = ratio(round, stack?.rounds[index]);
    });
  }
}

/** "1093 / 1101": one figure per round. */
export const perRound = (rounds: Round[], pick: (round: Round) => number | null, digits = 0): string =>
  rounds.every((round) => pick(round) === null)
    ? ''
    : rounds.map((round) => (pick(round) === null ? '-' : pick(round)!.toFixed(digits))).join(' / ');

/** "Lock/transactionid 7.2 / 6.9, running 1.1 / 1.3": the three busiest wait states, one figure per round. */
export function waitsPerRound(rounds: Round[]): string {
  if (!rounds.some((round) => round.waits)) return '';
  const averageIn = (round: Round, wait: string) => round.waits?.find((entry) => entry.wait === wait)?.average ?? 0;
  const waits = [...new Set(rounds.flatMap((round) => round.waits?.map((entry) => entry.wait) ?? []))]
    .map((wait) => ({ wait, total: rounds.reduce((sum, round) => sum + averageIn(round, wait), 0) }))
    .filter((entry) => entry.total >= 0.05 * rounds.length)
    .sort((a, b) => b.total - a.total)
    .slice(0, 3);
  if (waits.length === 0) return 'none';
  return waits
    .map(({ wait }) => `${wait} ${rounds.map((round) => averageIn(round, wait).toFixed(1)).join(' / ')}`)
    .join(', ');
}

export function printTable(rows: Row[], webhooks: WebhookRow[]): void {
  const header = [
    'scenario',
    'target',
    'conn',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    '÷ stack',
    '÷ floor',
    '÷ raw',
    'CPU ms/req',
    'PG CPU ms/req',
    'waits (avg conns)',
  ];
  const lines = rows.map((row) => [
    row.scenario,
    row.target,
    String(row.connections),
    perRound(row.rounds, (round) => round.requestsPerSecond),
    perRound(row.rounds, (round) => round.p50Ms),
    perRound(row.rounds, (round) => round.p99Ms),
    perRound(row.rounds, (round) => round.errors),
    perRound(row.rounds, (round) => round.ratioToStack ?? null, 2),
    perRound(row.rounds, (round) => round.ratioToFloor, 2),
    perRound(row.rounds, (round) => round.ratioToBaseline, 2),
    perRound(row.rounds, (round) => round.cpuMsPerRequest ?? null, 2),
    perRound(row.rounds, (round) => round.postgresCpuMsPerRequest ?? null, 2),
    waitsPerRound(row.rounds),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  console.log(`\n${format(header)}\n| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
  for (const line of lines) console.log(format(line));
  if (webhooks.length > 0) {
    console.log(
      '\n| webhook delivery | deliveries | per s | p50 ms | p99 ms | bad signatures |\n| --- | --- | --- | --- | --- | --- |',
    );
    for (const row of webhooks) {
      console.log(
        `| ${row.measure} | ${row.deliveries} | ${row.deliveriesPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${row.badSignatures} |`,
      );
    }
  }
}

/** The service's instructions per request over a reference's, round by round. */
export function instructionRatios(rows: InstructionRow[], scenario: string, reference: Row['target']): number[] {
  const of = (target: Row['target']) => rows.find((row) => row.scenario === scenario && row.target === target);
  const [service, base] = [of('service'), of(reference)];
  if (!service || !base) return [];
  return service.perRequest.flatMap((value, index) =>
    index < base.perRequest.length ? [value / base.perRequest[index]] : [],
  );
}

/**
 * Instructions per request, M, per scenario: the service, the stack floor, the framework floor (each a round's
 * figures), and the service's over each reference's; ≤ 1.05 × both is issue 51's bound.
 */
export function printInstructions(rows: InstructionRow[]): void {
  if (rows.length === 0) return;
  const millions = (row: InstructionRow | undefined) =>
    row ? row.perRequest.map((value) => (value / 1e6).toFixed(3)).join(' / ') : '';
  const ratios = (scenario: string, reference: Row['target']) =>
    instructionRatios(rows, scenario, reference)
      .map((value) => value.toFixed(3))
      .join(' / ');
  console.log(
    '\n| scenario | service M instr./req | stack floor | framework floor | service ÷ stack | service ÷ floor |\n' +
      '| --- | --- | --- | --- | --- | --- |',
  );
  for (const scenario of [...new Set(rows.map((row) => row.scenario))]) {
    const of = (target: Row['target']) => rows.find((row) => row.scenario === scenario && row.target === target);
    console.log(
      `| ${scenario} | ${millions(of('service'))} | ${millions(of('stack'))} | ${millions(of('floor'))} | ` +
        `${ratios(scenario, 'stack')} | ${ratios(scenario, 'floor')} |`,
    );
  }
}
