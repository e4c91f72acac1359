import pg from 'pg';
import { CHANGE_TOPICS, type ChangeFeed, type ChangeListener, type ChangeTopic } from '../caching/change-feed.js';
import { caughtUpInScope } from './request-scope.js';

/** The channel the triggers of migration 20261125100000 notify on, payload `<topic>:<account id>`. */
export const CHANGE_CHANNEL = 'ebbs_changes';
/** How the feed's connection names itself in pg_stat_activity. */
export const CHANGE_FEED_APPLICATION = 'ebbs-change-feed';

export interface PgChangeFeedOptions {
  url: string;
  reconnectMs: number;
  onError(error: unknown): void;
}

/**
 * LISTENs on its own connection. Live from the moment LISTEN is in effect until the connection
 * fails; every (re)connection first tells the listeners to drop everything, since notifications
 * sent while it was away are lost.
 */
export class PgChangeFeed implements ChangeFeed {
  live = false;
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private waiting: Promise<boolean> | null = null;
  private readonly listeners = new Map<ChangeTopic, ChangeListener[]>();

  constructor(private readonly options: PgChangeFeedOptions) {}

  subscribe(topic: ChangeTopic, listener: ChangeListener): void {
    this.listeners.set(topic, [...(this.listeners.get(topic) ?? []), listener]);
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.url, application_name: CHANGE_FEED_APPLICATION });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (error) this.options.onError(error);
      this.disconnected(client);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', ({ payload }) => this.dispatch(payload));
    try {
      await client.connect();
      await client.query(`listen ${CHANGE_CHANNEL}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (lost || this.closed) return void client.end().catch(() => {});
    this.client = client;
    this.announce(null);
    this.live = true;
  }

  /**
   * A `select 1` on the listening connection sent after the call: PostgreSQL delivers a session's
   * pending notifications before it reports a statement done (and a commit signals the listeners
   * before its own client hears of it), so when the answer arrives every change committed before
   * the call has been announced. Callers arriving while one is waiting to be sent share it, and
   * a request scope reuses its answer until it touches the database (caughtUpInScope).
   */
  caughtUp(): Promise<boolean> {
    if (!this.live) return Promise.resolve(false);
    return caughtUpInScope(() => (this.waiting ??= this.barrier()));
  }

  private async barrier(): Promise<boolean> {
    // A statement already sent may have been sent before this caller's change was committed.
    await this.inFlight;
    this.waiting = null;
    const client = this.client;
    if (!client || !this.live) return false;
    const sent = client.query('select 1');
    this.inFlight = sent.then(
      () => undefined,
      () => undefined,
    );
    try {
      await sent;
      return this.live;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
  }

  private disconnected(client: pg.Client): void {
    if (this.client === client) {
      this.client = null;
      this.live = false;
      this.announce(null);
    }
    client.end().catch(() => {});
    if (!this.closed) this.retry = setTimeout(() => void this.start(), this.options.reconnectMs).unref();
  }

  private dispatch(payload: string | undefined): void {
    const separator = payload?.indexOf(':') ?? -1;
    const topic = CHANGE_TOPICS.find((t) => t === payload?.slice(0, separator));
    // An unknown payload cannot be scoped, so every cache forgets everything.
    if (!topic) return this.announce(null);
    for (const listener of this.listeners.get(topic) ?? []) listener(payload!.slice(separator + 1));
  }

  private announce(accountId: string | null): void {
    for (const listeners of this.listeners.values()) for (const listener of listeners) listener(accountId);
  }
}
