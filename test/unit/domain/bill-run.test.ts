import { describe, expect, it } from 'vitest';
import { BILL_RUN_PHASES, BILL_RUN_STATES, BillRun, type BillRunAction, type BillRunPhase, type BillRunState } from '../../../core/domain/billing/bill-run.js';

const T0 = new Date('2026-11-01T10:00:00.000Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function runAt(state: BillRunState, phase: BillRunPhase): BillRun {
  return Object.assign(BillRun.open({ id: 'r', accountId: 'a', periodStart: '2026-10-01', periodEnd: '2026-11-01', siteIds: null }, T0), { state, phase });
}

function act(run: BillRun, action: BillRunAction, phase: BillRunPhase): boolean {
  if (action === 'complete') return run.startCompletion(later(1));
  if (action === 'finish') return run.finishPhase(phase, later(1));
  return run.failPhase(phase, 'boom', later(1));
}

describe('bill run transitions', () => {
  it('opens drafting, without a lease', () => {
    expect(BillRun.open({ id: 'r', accountId: 'a', periodStart: '2026-10-01', periodEnd: '2026-11-01', siteIds: ['s'] }, T0)).toMatchObject({
      state: 'creating',
      phase: 'create',
      failure: null,
      leaseToken: null,
      completedAt: null,
      createdAt: T0,
    });
  });

  // [from state, from phase, action, the phase the worker names, resulting state/phase or null when refused]
  const table: Array<[BillRunState, BillRunPhase, BillRunAction, BillRunPhase, string | null]> = [
    ['creating', 'create', 'finish', 'create', 'created/create'],
    ['creating', 'create', 'fail', 'create', 'failed/create'],
    ['creating', 'create', 'complete', 'create', null],
    ['creating', 'create', 'finish', 'complete', null],
    ['created', 'create', 'complete', 'create', 'completing/complete'],
    ['created', 'create', 'finish', 'create', null],
    ['created', 'create', 'fail', 'create', null],
    ['completing', 'complete', 'finish', 'complete', 'completed/complete'],
    ['completing', 'complete', 'fail', 'complete', 'failed/complete'],
    ['completing', 'complete', 'complete', 'complete', null],
    ['completing', 'complete', 'fail', 'create', null],
    ['completed', 'complete', 'complete', 'complete', null],
    ['completed', 'complete', 'finish', 'complete', null],
    ['completed', 'complete', 'fail', 'complete', null],
    ['failed', 'create', 'complete', 'create', null],
    ['failed', 'create', 'finish', 'create', null],
    ['failed', 'complete', 'complete', 'complete', 'completing/complete'],
    ['failed', 'complete', 'fail', 'complete', null],
  ];

  it.each(table)('%s/%s: %s (phase %s) -> %s', (state, phase, action, named, expected) => {
    const run = runAt(state, phase);
    const moved = act(run, action, named);
    expect(moved).toBe(expected !== null);
    expect(`${run.state}/${run.phase}`).toBe(expected ?? `${state}/${phase}`);
    expect(run.updatedAt).toEqual(expected ? later(1) : T0);
  });

  it('covers every state and phase in the table', () => {
    const covered = new Set(table.map(([state, phase]) => `${state}/${phase}`));
    for (const state of BILL_RUN_STATES) expect([...BILL_RUN_PHASES].some((phase) => covered.has(`${state}/${phase}`)), state).toBe(true);
  });

  it('records why a phase failed, forgets it when the completion is retried, and stamps completion', () => {
    const run = runAt('completing', 'complete');
    run.failPhase('complete', 'database gone', later(1));
    expect(run.failure).toBe('database gone');
    expect(run.startCompletion(later(2))).toBe(true);
    expect(run.failure).toBeNull();
    expect(run.finishPhase('complete', later(3))).toBe(true);
    expect(run.completedAt).toEqual(later(3));
  });
});

describe('bill run lease', () => {
  it('goes to one worker at a time until it runs out, and ends with the phase', () => {
    const run = runAt('creating', 'create');
    expect(run.claim('w1', T0, 60)).toBe(true);
    expect(run.leaseUntil).toEqual(later(60));
    expect(run.claim('w2', later(30), 60)).toBe(false);
    expect(run.claim('w1', later(30), 60)).toBe(true);
    expect(run.leaseUntil).toEqual(later(90));
    expect(run.claim('w2', later(91), 60)).toBe(true);
    expect(run.leaseToken).toBe('w2');
    expect(run.finishPhase('create', later(92))).toBe(true);
    expect([run.leaseToken, run.leaseUntil]).toEqual([null, null]);
  });

  it.each(['created', 'completed', 'failed'] as const)('is not taken on a %s run', (state) => {
    const run = runAt(state, 'complete');
    expect(run.claim('w1', T0, 60)).toBe(false);
    expect(run.leaseToken).toBeNull();
  });
});
