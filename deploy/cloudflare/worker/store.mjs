// StudentStore: the Durable Object that holds one student's MiniS3 store.
//
// Its name is the student's access key (or "(anonymous)", the object that
// answers requests naming no student, refusing them all). While the object
// is active it keeps one instance of the Go program (main.go), started on
// its first request or alarm, which serves the S3 API and the /_minis3/
// extensions over the object's SQLite storage (sqlstorage.mjs), verifying
// every request's signature with the student's key pair. If the object is
// evicted, or the program stops, the next request starts a new instance
// that loads the store from storage.
//
// On the wall clock (the worker's CLOCK variable set to "wall") the object
// keeps an alarm at the next midnight UTC, at which it runs the S3
// lifecycle of the store's buckets; a store opened after midnights passed
// unseen runs them first.
import { DurableObject } from "cloudflare:workers";
import { isStudentKey, secretKeyOf } from "./class.mjs";
import { startGo } from "./go.mjs";
import { rosterOf } from "./roster.mjs";
import { sqlStorage } from "./sqlstorage.mjs";

/** The name of the object that answers requests naming no student. */
export const ANONYMOUS = "(anonymous)";

export class StudentStore extends DurableObject {
  /** A Promise of the running program's handleRequest; null when none runs. */
  #serving = null;
  /** The program's side object (runDueLifecycles); null when none runs. */
  #program = null;
  /** What the object does once its store is open; awaited before answering. */
  #afterOpen = null;

  /** The student whose store this is, or "" for the anonymous object. */
  get accessKey() {
    const name = this.ctx.id.name;
    return isStudentKey(name) ? name : "";
  }

  /** Whether the class runs on the wall clock. */
  get wallClock() {
    return this.env.CLOCK === "wall";
  }

  /** The time now, in milliseconds since the Unix epoch: the wall clock. */
  now() {
    return Date.now();
  }

  async fetch(request) {
    const handleRequest = await this.#start();
    const response = await handleRequest(request);
    if (this.#afterOpen !== null) {
      await this.#afterOpen;
    }
    if (request.method === "HEAD") {
      response.body?.cancel();
      return new Response(null, { status: response.status, headers: response.headers });
    }
    return response;
  }

  /** The daily run of the S3 lifecycle on the wall clock. */
  async alarm() {
    if (!this.wallClock) {
      return;
    }
    await this.#start();
    await this.#program.runDueLifecycles();
    await this.ctx.storage.setAlarm(nextMidnight(this.now()));
  }

  /**
   * Empties the store, and drops the program that held it; a request that
   * program is still serving fails rather than write into the new store.
   */
  async reset() {
    this.#program?.storage.close();
    this.#serving = this.#program = this.#afterOpen = null;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /** Starts the program, once; a start that failed is tried again next time. */
  #start() {
    this.#serving ??= this.#run().catch((error) => {
      this.#serving = null;
      throw error;
    });
    return this.#serving;
  }

  async #run() {
    const classSecret = this.env.CLASS_SECRET;
    const accessKey = classSecret ? this.accessKey : "";
    const program = {
      accessKey,
      secretKey: accessKey ? await secretKeyOf(classSecret, accessKey) : "",
      clock: this.wallClock ? "wall" : "manual",
      now: () => this.now(),
      storage: sqlStorage(this.ctx.storage),
      opened: () => {
        this.#afterOpen = this.#opened().finally(() => { this.#afterOpen = null; });
      },
    };
    const handleRequest = await startGo(program, () => {
      if (this.#program === program) {
        this.#serving = this.#program = null;
      }
    });
    this.#program = program;
    return handleRequest;
  }

  /** Once the store is open: on the roster, and on the wall clock an alarm. */
  async #opened() {
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS student (access_key TEXT NOT NULL)");
    if (sql.exec("SELECT access_key FROM student").toArray().length === 0) {
      await rosterOf(this.env).add(this.accessKey);
      sql.exec("INSERT INTO student (access_key) VALUES (?)", this.accessKey);
    }
    if (this.wallClock && await this.ctx.storage.getAlarm() === null) {
      await this.ctx.storage.setAlarm(nextMidnight(this.now()));
    }
  }
}

/** The first midnight UTC after the time ms (milliseconds since the epoch). */
export function nextMidnight(ms) {
  const t = new Date(ms);
  return Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate() + 1);
}
