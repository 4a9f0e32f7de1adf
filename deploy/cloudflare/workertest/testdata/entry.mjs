// The worker as the tests run it: the real entry and Durable Objects, with
// what only tests need, for a student's store KEY:
//
//   POST /_test/alarm/KEY            runs the store's alarm now → { alarm }: the next one
//   GET  /_test/alarm/KEY            → { alarm }: the time of the store's alarm, or null
//   POST /_test/clock/KEY?offsetMs=N moves the store's wall clock N ms ahead of the real one
//   POST /_test/evict/KEY            drops the object from memory, Go instance and all, as
//                                    Cloudflare evicts an idle one (ctx.abort)
import worker, { ClassRoster, StudentStore as Store } from "../../worker/index.mjs";

export { ClassRoster };

export class StudentStore extends Store {
  /** The wall clock, moved by the offset the test set (kept in a table of its own). */
  now() {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS test_clock (offset_ms INTEGER NOT NULL)");
    const row = this.ctx.storage.sql.exec("SELECT offset_ms FROM test_clock").toArray()[0];
    return super.now() + (row?.offset_ms ?? 0);
  }

  setClockOffset(ms) {
    this.now();
    this.ctx.storage.sql.exec("DELETE FROM test_clock");
    this.ctx.storage.sql.exec("INSERT INTO test_clock (offset_ms) VALUES (?)", ms);
  }

  async fireAlarm() {
    await this.alarm();
    return this.ctx.storage.getAlarm();
  }

  alarmTime() {
    return this.ctx.storage.getAlarm();
  }

  evict() {
    this.ctx.abort("evicted by the test");
  }
}

const routes = {
  "POST alarm": (store) => store.fireAlarm().then((alarm) => ({ alarm })),
  "GET alarm": (store) => store.alarmTime().then((alarm) => ({ alarm })),
  "POST clock": (store, url) => store.setClockOffset(Number(url.searchParams.get("offsetMs"))).then(() => ({})),
  "POST evict": (store) => store.evict().then(() => ({}), () => ({ evicted: true })),
};

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const test = /^\/_test\/(\w+)\/([^/]+)$/.exec(url.pathname);
    const route = test && routes[`${request.method} ${test[1]}`];
    if (route) {
      return Response.json(await route(env.STORES.get(env.STORES.idFromName(test[2])), url));
    }
    return worker.fetch(request, env);
  },
};
