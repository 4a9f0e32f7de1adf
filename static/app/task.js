// The task panel (#task): the exercise a loaded scenario ends with. Its
// steps set the stage; then the panel asks, records what the student does,
// checks it on request (exercise.js decides), reveals hints one at a time
// and, after an attempt, the solution, which it can also perform.
import { $, h, replace } from "./dom.js";
import { isolate } from "./model.js";
import { kindOf } from "./steps.js";
import { canShowSolution, evaluateTask, newProgress, nextHint, restoredProgress } from "./exercise.js";
import { state, exerciseStarted, exerciseProgressed, isStaged } from "./state.js";

// page: { enqueue(job), exec(step), runStage(), tell(type, fields), save() },
// the parts of main.js the panel uses. The progress is saved with the
// page's own state (save) whenever it changes.
let page = null;

const exercise = () => state.exercise;

export function wireTask(p) {
  page = p;
  $("task-stage-btn").addEventListener("click", () => page.enqueue(page.runStage));
  $("task-answer-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    page.enqueue(checkWork);
  });
  $("task-check-btn").addEventListener("click", () => page.enqueue(checkWork));
  $("task-hint-btn").addEventListener("click", () => {
    const ex = exercise();
    exerciseProgressed(nextHint(ex.progress, ex.task));
    page.save();
    renderTask();
    // The button is disabled after the last hint: focus goes to the hints.
    if ($("task-hint-btn").disabled) $("task-hints").focus();
  });
  $("task-solution-btn").addEventListener("click", () => {
    exerciseProgressed({ ...exercise().progress, solutionShown: true });
    page.save();
    renderTask();
    $("task-solution").focus();
  });
  $("task-solution-run-btn").addEventListener("click", () => page.enqueue(async () => {
    const ex = exercise();
    if (ex.task.solution.answer !== null) writeAnswer(ex.task, ex.task.solution.answer);
    for (const step of ex.task.solution.steps) await page.exec(step);
  }));
}

// startTask shows the task of a scenario just loaded (or none), with the
// progress saved for it before a reload, if any (see restoredProgress).
export function startTask(sc, saved = null) {
  const progress = (sc?.task && saved !== null && restoredProgress(saved, sc.task)) || newProgress();
  exerciseStarted(sc, progress);
  buildAnswer(state.exercise?.task.answer ?? null);
  renderTask();
}

// buildAnswer makes the answer field: a text field, or one radio button per
// choice.
function buildAnswer(answer) {
  const form = $("task-answer-form");
  form.hidden = !answer;
  if (!answer) {
    replace($("task-answer"));
    return;
  }
  if (!answer.choices) {
    replace($("task-answer"),
      h("label", { for: "task-answer-text" }, answer.label),
      h("input", { id: "task-answer-text", autocomplete: "off", spellcheck: "false" }));
    return;
  }
  replace($("task-answer"), h("fieldset", { class: "task-choices" },
    h("legend", {}, answer.label),
    answer.choices.map((text, i) => h("label", { class: "task-choice" },
      h("input", { type: "radio", name: "task-choice", value: String(i + 1), id: `task-choice-${i + 1}` }), ` ${text}`))));
}

function readAnswer() {
  const text = document.getElementById("task-answer-text");
  if (text) return text.value;
  return document.querySelector('input[name="task-choice"]:checked')?.value ?? "";
}

function writeAnswer(task, value) {
  if (!task.answer.choices) $("task-answer-text").value = value;
  else document.getElementById(`task-choice-${value}`).checked = true;
}

// checkWork gathers the facts, evaluates the task and tells the host page.
async function checkWork() {
  const ex = exercise();
  if (!ex || !isStaged()) return;
  let versions = [];
  try {
    versions = await state.store.listVersions(ex.bucket, {});
  } catch (err) {
    if (err.code !== "NoSuchBucket") throw err;
  }
  const answer = readAnswer();
  const result = evaluateTask(ex.task, { versions, rules: state.rules, ruleErrors: state.ruleErrors.length, taken: ex.progress.taken, answer });
  exerciseProgressed({ ...ex.progress, attempts: ex.progress.attempts + 1, last: result });
  page.save();
  renderTask();
  const fields = { title: ex.title, attempts: exercise().progress.attempts, checks: result.checks.map((c) => ({ label: c.label, pass: c.pass })) };
  if (ex.task.answer) fields.answer = answer;
  page.tell(result.solved ? "solved" : "failed", fields);
}

// renderTask shows the exercise as it stands.
export function renderTask() {
  if (!page) return;
  const ex = exercise();
  $("task").hidden = !ex;
  if (!ex) return;
  const { task, progress } = ex;
  const ready = isStaged();
  const busy = state.busy;
  $("task-title").textContent = `Your task: ${isolate(ex.title)}`;
  $("task-prompt").textContent = task.prompt;
  // What each check looks at, before an attempt; after one, the checks'
  // results below say it.
  $("task-criteria").hidden = Boolean(progress.last);
  $("task-criteria-summary").textContent = `What Check looks at (${task.checks.length})`;
  replace($("task-criteria-list"), task.checks.map((c) => h("li", {}, c.label)));
  const left = state.scenario ? state.scenario.steps.length - state.scenario.results.length : 0;
  $("task-stage").hidden = ready;
  $("task-stage").textContent = ready ? "" : `First set the stage: the scenario's ${left} remaining step(s) prepare the bucket.`;
  $("task-stage-btn").hidden = ready;
  $("task-stage-btn").disabled = busy;
  $("task-check-btn").disabled = !ready || busy;
  for (const input of $("task-answer").querySelectorAll("input")) input.disabled = !ready;

  $("task-hint-btn").hidden = task.hints.length === 0;
  $("task-hint-btn").disabled = progress.hintsShown >= task.hints.length;
  $("task-hint-btn").textContent = progress.hintsShown >= task.hints.length ? "No more hints" : `Show hint ${progress.hintsShown + 1} of ${task.hints.length}`;
  replace($("task-hints"), task.hints.slice(0, progress.hintsShown).map((text) => h("li", {}, text)));

  const verdict = $("task-verdict");
  const last = progress.last;
  if (!last) {
    verdict.textContent = "";
    verdict.className = "task-verdict";
  } else {
    const failed = last.checks.filter((c) => !c.pass).length;
    verdict.textContent = last.solved ? `Solved: all ${last.checks.length} checks pass.` : `Not yet: ${failed} of ${last.checks.length} checks fail (attempt ${progress.attempts}).`;
    verdict.className = `task-verdict ${last.solved ? "pass" : "fail"}`;
  }
  replace($("task-checks"), (last?.checks ?? []).map((c) => h("li", { class: c.pass ? "pass" : "fail" },
    h("strong", {}, c.pass ? "✓ passed" : "✗ failed"), ` ${c.label} — ${c.detail}`)));

  const offer = canShowSolution(progress);
  $("task-solution-btn").hidden = !offer || progress.solutionShown;
  $("task-solution").hidden = !progress.solutionShown;
  $("task-solution-text").textContent = task.solution.text;
  $("task-solution-answer").hidden = task.solution.answer === null;
  $("task-solution-answer").textContent = task.solution.answer === null ? "" : `Answer: ${task.solution.answer}`;
  replace($("task-solution-steps"), task.solution.steps.map((s) => h("li", {}, kindOf(s.op).describe(s))));
  $("task-solution-run-btn").hidden = task.solution.steps.length === 0 && task.solution.answer === null;
  $("task-solution-run-btn").disabled = !ready || busy;
}
