// The task panel (#task): the exercise a loaded scenario ends with. Its
// steps set the stage; then the panel asks, records what the student does,
// checks it on request (exercise.js decides), reveals hints one at a time
// and, after an attempt, the solution, which it can also perform. The
// progress is in the page's state, saved with it whenever it changes.
import { $, h, replace } from "../dom.js";
import { isolate } from "../model.js";
import { kindOf } from "../steps.js";
import { canShowSolution, evaluateTask, nextHint } from "../exercise.js";
import { state, exerciseProgressed, isStaged } from "../state.js";
import { enqueue } from "../jobs.js";
import { exec } from "../runner.js";
import { save } from "../saved.js";
import { tell } from "../course.js";
import { runStage } from "./scenarios.js";
import { typeLine } from "./terminal.js";

const exercise = () => state.exercise;

export function wire() {
  $("task-stage-btn").addEventListener("click", () => enqueue(runStage));
  $("task-answer-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    enqueue(checkWork);
  });
  $("task-check-btn").addEventListener("click", () => enqueue(checkWork));
  $("task-hint-btn").addEventListener("click", () => {
    const ex = exercise();
    exerciseProgressed(nextHint(ex.progress, ex.task));
    save();
    render(state);
    // The button is disabled after the last hint: focus goes to the hints.
    if ($("task-hint-btn").disabled) $("task-hints").focus();
  });
  $("task-solution-btn").addEventListener("click", () => {
    exerciseProgressed({ ...exercise().progress, solutionShown: true });
    save();
    render(state);
    $("task-solution").focus();
  });
  $("task-solution-run-btn").addEventListener("click", () => enqueue(async () => {
    const ex = exercise();
    if (ex.task.solution.answer !== null) writeAnswer(ex.task, ex.task.solution.answer);
    for (const step of ex.task.solution.steps) await (step.op === "command" ? typeLine(step.line) : exec(step));
  }));
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
  const describe = (line) => state.terminal.describe(line);
  const result = evaluateTask(ex.task, { versions, rules: state.rules, ruleErrors: state.ruleErrors.length, taken: ex.progress.taken, answer, describe });
  exerciseProgressed({ ...ex.progress, attempts: ex.progress.attempts + 1, last: result });
  save();
  render(state);
  const fields = { title: ex.title, attempts: exercise().progress.attempts, checks: result.checks.map((c) => ({ label: c.label, pass: c.pass })) };
  if (ex.task.answer) fields.answer = answer;
  tell(result.solved ? "solved" : "failed", fields);
}

// The exercise whose answer field was last built (state.exercise.id, 0
// for none): the field is built once per exercise started, so that a
// render never takes what the student is typing.
let answerFor = 0;

// render shows the exercise as it stands. It runs with every render of the
// page, so it changes only what changed: the hints and the verdict are
// live regions, read out whenever they change.
export function render(state) {
  const ex = state.exercise;
  if (answerFor !== (ex?.id ?? 0)) {
    answerFor = ex?.id ?? 0;
    buildAnswer(ex?.task.answer ?? null);
  }
  $("task").hidden = !ex;
  if (!ex) return;
  const { task, progress } = ex;
  const ready = isStaged();
  const busy = state.busy;
  setText($("task-title"), `Your task: ${isolate(ex.title)}`);
  setText($("task-prompt"), task.prompt);
  // What each check looks at, before an attempt; after one, the checks'
  // results below say it.
  $("task-criteria").hidden = Boolean(progress.last);
  setText($("task-criteria-summary"), `What Check looks at (${task.checks.length})`);
  setList($("task-criteria-list"), task.checks.map((c) => c.label), (label) => h("li", {}, label));
  const left = state.scenario ? state.scenario.steps.length - state.scenario.results.length : 0;
  $("task-stage").hidden = ready;
  setText($("task-stage"), ready ? "" : `First set the stage: the scenario's ${left} remaining step(s) prepare the bucket.`);
  $("task-stage-btn").hidden = ready;
  $("task-stage-btn").disabled = busy;
  $("task-check-btn").disabled = !ready || busy;
  for (const input of $("task-answer").querySelectorAll("input")) input.disabled = !ready;

  $("task-hint-btn").hidden = task.hints.length === 0;
  $("task-hint-btn").disabled = progress.hintsShown >= task.hints.length;
  setText($("task-hint-btn"), progress.hintsShown >= task.hints.length ? "No more hints" : `Show hint ${progress.hintsShown + 1} of ${task.hints.length}`);
  setList($("task-hints"), task.hints.slice(0, progress.hintsShown), (text) => h("li", {}, text));

  const verdict = $("task-verdict");
  const last = progress.last;
  if (!last) {
    setText(verdict, "");
    verdict.className = "task-verdict";
  } else {
    const failed = last.checks.filter((c) => !c.pass).length;
    setText(verdict, last.solved ? `Solved: all ${last.checks.length} checks pass.` : `Not yet: ${failed} of ${last.checks.length} checks fail (attempt ${progress.attempts}).`);
    verdict.className = `task-verdict ${last.solved ? "pass" : "fail"}`;
  }
  setList($("task-checks"), last?.checks ?? [], (c) => h("li", { class: c.pass ? "pass" : "fail" },
    h("strong", {}, c.pass ? "✓ passed" : "✗ failed"), ` ${c.label} — ${c.detail}`));

  const offer = canShowSolution(progress);
  $("task-solution-btn").hidden = !offer || progress.solutionShown;
  $("task-solution").hidden = !progress.solutionShown;
  setText($("task-solution-text"), task.solution.text);
  $("task-solution-answer").hidden = task.solution.answer === null;
  setText($("task-solution-answer"), task.solution.answer === null ? "" : `Answer: ${task.solution.answer}`);
  setList($("task-solution-steps"), task.solution.steps.map((s) => kindOf(s.op).describe(s)), (title) => h("li", {}, title));
  $("task-solution-run-btn").hidden = task.solution.steps.length === 0 && task.solution.answer === null;
  // A solution of command lines is typed into the terminal.
  setText($("task-solution-run-btn"), task.solution.steps.length > 0 && task.solution.steps.every((s) => s.op === "command") ? "Type it for me" : "Do it for me");
  $("task-solution-run-btn").disabled = !ready || busy;
}

// setText sets el's text when it is not that already.
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

// The items each list was last built from, as JSON.
const listed = new WeakMap();

// setList builds el's items from items (one view each) when they are not
// the ones it shows already.
function setList(el, items, view) {
  const sig = JSON.stringify(items);
  if (listed.get(el) === sig) return;
  listed.set(el, sig);
  replace(el, items.map(view));
}
