// The roster of the class: the stores that exist, for the instructor to
// list. One Durable Object of class ClassRoster, named "roster", keeps it;
// each student's store adds itself the first time it opens.
import { DurableObject } from "cloudflare:workers";

/** The one roster of the worker. */
export function rosterOf(env) {
  return env.ROSTER.get(env.ROSTER.idFromName("roster"));
}

export class ClassRoster extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS stores (
      access_key TEXT PRIMARY KEY,
      since TEXT NOT NULL)`);
  }

  /** Adds a student's store, keeping the time it was first added. */
  add(accessKey) {
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO stores (access_key, since) VALUES (?, ?)",
      accessKey, new Date().toISOString());
  }

  /** Every store: [{ accessKey, since }], by access key. */
  list() {
    return this.ctx.storage.sql.exec(
      "SELECT access_key AS accessKey, since FROM stores ORDER BY access_key").toArray();
  }
}
