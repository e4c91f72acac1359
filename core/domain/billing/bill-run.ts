import { periodsOverlap } from '../periods.js';

export const BILL_RUN_STATES = ['creating', 'created', 'completing', 'completed', 'failed'] as const;
export type BillRunState = (typeof BILL_RUN_STATES)[number];
export const BILL_RUN_PHASES = ['create', 'complete'] as const;
export type BillRunPhase = (typeof BILL_RUN_PHASES)[number];

/**
 * What moves a run: an operator asks to `complete` it (issue its drafts), the worker `finish`es the
 * phase it works, or the phase `fail`s.
 */
export type BillRunAction = 'complete' | 'finish' | 'fail';

type Position = `${BillRunState}/${BillRunPhase}`;

/**
 * Every move a run can make, and nothing else: creating → created → completing → completed, a
 * working phase that fails ends `failed`, and a failed completion can be completed again (a failed
 * creation is deleted and created anew).
 */
export const BILL_RUN_TRANSITIONS: Readonly<Record<BillRunAction, Partial<Record<Position, Position>>>> = {
  complete: { 'created/create': 'completing/complete', 'failed/complete': 'completing/complete' },
  finish: { 'creating/create': 'created/create', 'completing/complete': 'completed/complete' },
  fail: { 'creating/create': 'failed/create', 'completing/complete': 'failed/complete' },
};

/** A bill run: drafts every billable contract of a period, then issues them. */
export class BillRun {
  id!: string;
  accountId!: string;
  periodStart!: string;
  periodEnd!: string;
  /** Null: every site of the account. */
  siteIds!: string[] | null;
  state!: BillRunState;
  /** The phase running, or the one that failed (and is retried). */
  phase!: BillRunPhase;
  /** Why the phase failed, while `failed`. */
  failure!: string | null;
  /** The worker running a phase holds a lease; a crashed one's lease runs out and another resumes. */
  leaseToken!: string | null;
  leaseUntil!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
  completedAt!: Date | null;

  /** A new run, drafting first. */
  static open(fields: Pick<BillRun, 'id' | 'accountId' | 'periodStart' | 'periodEnd' | 'siteIds'>, now: Date): BillRun {
    return Object.assign(new BillRun(), fields, {
      state: 'creating',
      phase: 'create',
      failure: null,
      leaseToken: null,
      leaseUntil: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    } satisfies Partial<BillRun>);
  }

  /** Whether `action` applies now (the table above decides). */
  allows(action: BillRunAction): boolean {
    return BILL_RUN_TRANSITIONS[action][`${this.state}/${this.phase}`] !== undefined;
  }

  /** A worker is running (or should run) one of its phases. */
  get working(): boolean {
    return this.state === 'creating' || this.state === 'completing';
  }

  /** Operator: issue the drafts (or retry a failed completion). False when the run is not there. */
  startCompletion(now: Date): boolean {
    if (!this.move('complete', now)) return false;
    this.failure = null;
    return true;
  }

  /** Worker: the phase `phase` is done. False when the run has moved on meanwhile. */
  finishPhase(phase: BillRunPhase, now: Date): boolean {
    if (this.phase !== phase || !this.move('finish', now)) return false;
    this.releaseLease();
    if (this.state === 'completed') this.completedAt = now;
    return true;
  }

  /** Worker: the phase `phase` cannot go on. False when the run has moved on meanwhile. */
  failPhase(phase: BillRunPhase, failure: string, now: Date): boolean {
    if (this.phase !== phase || !this.move('fail', now)) return false;
    this.releaseLease();
    this.failure = failure;
    return true;
  }

  /**
   * Worker: takes or renews the lease for `token`; false when the run is not working or another
   * worker's lease has not run out.
   */
  claim(token: string, now: Date, leaseSeconds: number): boolean {
    if (!this.working) return false;
    if (this.leaseToken !== null && this.leaseToken !== token && this.leaseUntil! > now) return false;
    this.leaseToken = token;
    this.leaseUntil = new Date(now.getTime() + leaseSeconds * 1000);
    return true;
  }

  private move(action: BillRunAction, now: Date): boolean {
    const next = BILL_RUN_TRANSITIONS[action][`${this.state}/${this.phase}`];
    if (!next) return false;
    const [state, phase] = next.split('/') as [BillRunState, BillRunPhase];
    this.state = state;
    this.phase = phase;
    this.updatedAt = now;
    return true;
  }

  private releaseLease(): void {
    this.leaseToken = null;
    this.leaseUntil = null;
  }
}

type RunScope = Pick<BillRun, 'periodStart' | 'periodEnd' | 'siteIds'>;

/** The first of `runs` that shares a day and a site with `run` (null sites: every site). */
export function overlappingRun<R extends RunScope>(run: RunScope, runs: readonly R[]): R | undefined {
  const period = (r: RunScope) => ({ startDate: r.periodStart, endDate: r.periodEnd });
  return runs.find(
    (other) =>
      periodsOverlap(period(run), period(other)) && (run.siteIds === null || other.siteIds === null || run.siteIds.some((id) => other.siteIds!.includes(id))),
  );
}

/** Why a bill run gave a contract no invoice. */
export class BillRunError {
  billRunId!: string;
  accountId!: string;
  contractId!: string;
  code!: string;
  message!: string;
  createdAt!: Date;
}
