// The job queue: all work on the store (a step, a refresh, loading a
// scenario) runs one job at a time, in order, so that no two interleave.
import { setBusy, jobFailed } from "./state.js";
import { render } from "./view.js";

let queue = Promise.resolve();

// enqueue runs job once the jobs before it are done. While it runs the
// page is busy; an error it throws goes to the result panel.
export function enqueue(job) {
  queue = queue.then(async () => {
    setBusy(true);
    document.body.classList.add("busy");
    try {
      await job();
    } catch (err) {
      jobFailed(err);
      render("objects");
    } finally {
      setBusy(false);
      document.body.classList.remove("busy");
      render("scenarios", "task");
    }
  });
  return queue;
}
