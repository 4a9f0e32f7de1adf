// The worker as the tests run it: the real entry and Durable Objects, with
// what only tests need: a store's wall clock moved by TEST_CLOCK_OFFSET_MS,
// and its alarm fired on demand.
//
//   POST /_test/alarm/KEY    runs KEY's store's alarm now → { alarm }: the next one
//   GET  /_test/alarm/KEY    → { alarm }: the time of KEY's store's alarm, or null
import worker, { ClassRoster, StudentStore as Store } from "../../worker/index.mjs";

export { ClassRoster };

export class StudentStore extends Store {
  now() {
    return super.now() + Number(this.env.TEST_CLOCK_OFFSET_MS);
  }

  async fireAlarm() {
    await this.alarm();
    return this.ctx.storage.getAlarm();
  }

  alarmTime() {
    return this.ctx.storage.getAlarm();
  }
}

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    const alarm = /^\/_test\/alarm\/([^/]+)$/.exec(path);
    if (alarm !== null) {
      const store = env.STORES.get(env.STORES.idFromName(alarm[1]));
      return Response.json({ alarm: request.method === "POST" ? await store.fireAlarm() : await store.alarmTime() });
    }
    return worker.fetch(request, env);
  },
};
