// The learner's path (path.js) in the page: the exercises solved marked
// in the Scenarios menu, how far along the path the learner is, and, once
// an exercise is solved, the task panel's Next exercise. An embed offers
// Next exercise only on a course's path (?course=): otherwise the course
// page around it chose its one exercise.
import { $ } from "../dom.js";
import { isolate } from "../model.js";
import { params } from "../params.js";
import { state } from "../state.js";
import { enqueue } from "../jobs.js";
import { course, markSolved, menuText, nextAfter, pathOf, solvedNames } from "../path.js";
import { loadRequested } from "./scenarios.js";

export function wire() {
  $("task-next-btn").addEventListener("click", () => {
    const next = nextAfter(state.scenarios, state.exercise?.name);
    if (next) enqueue(() => loadRequested(next.name));
  });
}

export function render(state) {
  const ex = state.exercise;
  if (ex?.progress.last?.solved) markSolved(ex.name);
  const solved = solvedNames();
  const path = pathOf(state.scenarios);
  for (const option of $("scenario-select").options) {
    const sc = state.scenarios.find((s) => s.name === option.value);
    const text = sc ? menuText(sc, state.scenarios, solved) : option.textContent;
    if (option.textContent !== text) option.textContent = text;
  }
  const done = path.filter((s) => solved.has(s.name)).length;
  const title = course() ? `Course “${isolate(course().title)}”` : "The chapter's exercises";
  $("path-progress").hidden = path.length === 0;
  $("path-progress").textContent = `${title}: ${done} of ${path.length} solved.`;
  const next = ex?.progress.last?.solved && (!params.embed || course()) ? nextAfter(state.scenarios, ex.name) : null;
  $("task-next-btn").hidden = !next;
  $("task-next-btn").textContent = next ? `Next exercise: ${next.title}` : "Next exercise";
}
