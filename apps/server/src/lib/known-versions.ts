/**
 * The seats' list versions (migration 025) this instance may trust without reading them, so a
 * cached list is answered with no round trip to PostgreSQL. A version is learned from a read
 * of the database and trusted until anything says the seat's lists changed:
 *
 * - the database's notice of the change (migration 026: any instance, the CLI, a statement by
 *   hand), received while the feed listens (`setLive`);
 * - an event of the seat, committed here or announced by another instance (the hub hears of it
 *   before it pushes the event, so a console that refetches on the event reads afresh, even
 *   when the database's notice is still on its way);
 * - any call of the seat on this instance but the list reads (`CallRegistry.listRead`): some
 *   change a chat with no event, and a console must read its own writes.
 *
 * SQLite has no notices: its own writes tell through temporary triggers, and another process's
 * commit is seen before each trusted version (lib/sqlite-list-changes.ts, `watch`). PostgreSQL's
 * feed not listening (its connection down), nothing is trusted: every read asks.
 * A read that began before a change (or before the feed listened) learns nothing, since its
 * version may predate the change.
 */
export class KnownVersions {
  private readonly versions = new Map<number, number>();
  /** Changes seen per seat, and resets of the feed: a read learns only if neither moved. */
  private readonly changes = new Map<number, number>();
  private resets = 0;
  private live = false;
  /** Asked before a version is trusted: did the database change in a way nothing told? */
  private changedUntold: (() => boolean) | null = null;

  /** The seat's version, if it can be trusted now. */
  known(seatId: number): number | undefined {
    if (this.changedUntold?.()) this.setLive(this.live);
    return this.live ? this.versions.get(seatId) : undefined;
  }

  /**
   * Trust versions from now, forgetting them all whenever `changedUntold` says so (SQLite:
   * another process committed); this process's changes must still be told (`changed`).
   */
  watch(changedUntold: () => boolean): void {
    this.changedUntold = changedUntold;
    this.setLive(true);
  }

  /** Call before reading the seat's version from the database; hand the mark to `learned`. */
  mark(seatId: number): string {
    return `${this.resets}:${this.changes.get(seatId) ?? 0}`;
  }

  /** The version read since `mark`: trusted if nothing changed the seat meanwhile. */
  learned(seatId: number, version: number, mark: string): void {
    if (this.live && mark === this.mark(seatId)) this.versions.set(seatId, version);
  }

  /** The seat's lists changed (or may have): its next read asks the database. */
  changed(seatId: number): void {
    this.versions.delete(seatId);
    this.changes.set(seatId, (this.changes.get(seatId) ?? 0) + 1);
  }

  /** The feed listens (true) or lost its connection (false): either way forget everything. */
  setLive(live: boolean): void {
    this.live = live;
    this.versions.clear();
    this.resets += 1;
  }
}
