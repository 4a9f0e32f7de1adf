// The task panel (#task): the exercise a loaded scenario ends with. Its
// steps set the stage; then the panel asks, records what the student does,
// checks it on request (exercise.js decides), reveals hints one at a time
// and, after an attempt, the solution. Start again goes back to the stage;
// Do it for me starts again and performs the solution. The progress is in
// the page's state, saved with it whenever it changes.
import { $, h, replace, setText, setList } from "../dom.js";
import { isolate } from "../model.js";
import { kindOf } from "../steps.js";
import { canShowSolution, evaluateTask, nextHint } from "../exercise.js";
import { params } from "../params.js";
import { state, exerciseProgressed, isStaged } from "../state.js";
import { enqueue } from "../jobs.js";
import { exec } from "../runner.js";
import { save } from "../saved.js";
import { tell } from "../course.js";
import { renderAll } from "../view.js";
import { runStage, startAgain } from "./scenarios.js";
import { typeLine } from "./terminal.js";

const exercise = () => state.exercise;

export function wire() {
  // The steps the task runs (the stage, the solution) show their outcome in
  // the stacks and the history, and in no panel of their own.
  $("task-stage-btn").addEventListener("click", () => enqueue(() => runStage("task")));
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
    else $("task-hints").lastElementChild?.scrollIntoView({ block: "nearest" });
  });
  $("task-restart-btn").addEventListener("click", () => enqueue(startAgain));
  $("task-solution-btn").addEventListener("click", () => {
    exerciseProgressed({ ...exercise().progress, solutionShown: true });
    save();
    // The solution shown brings back what the exercise kept folded.
    renderAll();
    $("task-solution").focus();
  });
  $("task-solution-run-btn").addEventListener("click", () => enqueue(doItForMe));
  addEventListener("resize", () => keepTickInView());
}

// doItForMe starts the exercise again from its stage, writes the
// solution's answer, performs its steps and checks: it always ends solved.
async function doItForMe() {
  await startAgain();
  const task = exercise().task;
  if (task.solution.answer !== null) writeAnswer(task, task.solution.answer);
  for (const step of task.solution.steps) {
    await (step.op === "command" ? typeLine(step.line) : exec(step, undefined, "task"));
  }
  await checkWork();
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

// checkWork gathers the facts, evaluates the task, shows the verdict at
// the top of the feedback, and tells the host page.
async function checkWork() {
  const ex = exercise();
  if (!ex || !isStaged()) return;
  let versions = [];
  let s3Rules = [];
  try {
    versions = await state.store.listVersions(ex.bucket, {});
    s3Rules = (await state.store.getBucketLifecycle(ex.bucket)).Rules;
  } catch (err) {
    if (err.code !== "NoSuchBucket" && err.code !== "NoSuchLifecycleConfiguration") throw err;
  }
  const answer = readAnswer();
  const describe = (line) => state.terminal.describe(line);
  const result = evaluateTask(ex.task, { versions, rules: state.rules, ruleErrors: state.ruleErrors.length, s3Rules, taken: ex.progress.taken, answer, describe });
  exerciseProgressed({ ...ex.progress, attempts: ex.progress.attempts + 1, last: result });
  save();
  // A task solved brings back what the exercise kept folded.
  renderAll();
  showVerdict();
  const progress = exercise().progress;
  const fields = { title: ex.title, attempts: progress.attempts, checks: result.checks.map((c) => ({ label: c.label, pass: c.pass })), solutionShown: progress.solutionShown };
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
  const started = answerFor !== (ex?.id ?? 0);
  if (started) {
    answerFor = ex?.id ?? 0;
    buildAnswer(ex?.task.answer ?? null);
  }
  $("task").hidden = !ex || !params.shows("task");
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
  $("task-restart-btn").disabled = busy;
  for (const input of $("task-answer").querySelectorAll("input")) input.disabled = !ready;

  $("task-hint-btn").hidden = task.hints.length === 0;
  $("task-hint-btn").disabled = progress.hintsShown >= task.hints.length;
  setText($("task-hint-btn"), progress.hintsShown >= task.hints.length ? "No more hints" : `Hint ${progress.hintsShown + 1} of ${task.hints.length}`);
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
  // A failed check says what the student did or has (its lines: how the
  // stacks differ from the ones asked for), and its hint.
  setList($("task-checks"), (last?.checks ?? []).map((c, i) => ({ ...c, hint: c.pass ? null : task.checks[i].hint ?? null })), (c) => h("li", { class: c.pass ? "pass" : "fail" },
    h("strong", {}, c.pass ? "✓ passed" : "✗ not yet"), ` ${c.label} — ${c.detail}`,
    c.lines ? h("ul", { class: "check-lines" }, c.lines.map((line) => h("li", {}, line))) : null,
    c.hint ? h("p", { class: "check-hint" }, `Hint: ${c.hint}`) : null));

  const offer = canShowSolution(progress);
  $("task-solution-btn").hidden = !offer || progress.solutionShown;
  $("task-solution").hidden = !progress.solutionShown;
  setText($("task-solution-text"), task.solution.text);
  $("task-solution-answer").hidden = task.solution.answer === null;
  setText($("task-solution-answer"), task.solution.answer === null ? "" : `Answer: ${solutionAnswer(task)}`);
  setList($("task-solution-steps"), task.solution.steps.map((s) => kindOf(s.op).describe(s)), (title) => h("li", {}, title));
  // A solution of command lines is typed into the terminal.
  setText($("task-solution-run-btn"), task.solution.steps.length > 0 && task.solution.steps.every((s) => s.op === "command") ? "Type it for me" : "Do it for me");
  $("task-solution-run-btn").disabled = !ready || busy;

  keepTickInView();
  if (started) showTask();
}

// solutionAnswer is the solution's answer as the student would read it:
// the text of the right choice, or what to write.
function solutionAnswer(task) {
  const a = task.solution.answer;
  return task.answer.choices ? `${a}. ${task.answer.choices[Number(a) - 1]}` : a;
}

// showTask brings an exercise just started into view: the page scrolls
// (only its own window, never a course page around an embed) to the task
// and, when the reader is in this page and not in the task already, moves
// focus to it, so that its title is read out.
function showTask() {
  const task = $("task");
  if (task.hidden) return;
  const top = task.getBoundingClientRect().top;
  if (top < 0 || top > innerHeight / 2) scrollTo({ top: scrollY + top - 8 });
  if (document.hasFocus() && !task.contains(document.activeElement)) task.focus({ preventScroll: true });
}

// Below Tick (or the command line), the room kept to the bottom of the
// first screen; and the least the feedback, or the whole task, keeps when
// cut short. In CSS pixels.
const TICK_MARGIN = 8;
const MIN_FEEDBACK = 64;
const MIN_TASK = 180;

// keepTickInView keeps a tall task from pushing Tick, and the terminal's
// command line in an exercise done in the terminal, off the first screen.
// When they are below the task and would be off it, what is too much is
// cut from the feedback (verdict, checks, hints, solution), which then
// scrolls within itself, when that leaves it MIN_FEEDBACK; otherwise the
// whole task scrolls, its buttons staying in view. What was scrolled stays
// scrolled.
function keepTickInView() {
  const task = $("task");
  const feedback = $("task-feedback");
  const scrolled = [task.scrollTop, feedback.scrollTop];
  task.style.maxHeight = "";
  feedback.style.maxHeight = "";
  const kept = [$("tick-btn"), $("terminal-input").parentElement].filter(belowTask);
  const bottom = Math.max(...kept.map((el) => el.getBoundingClientRect().bottom));
  const over = kept.length > 0 ? bottom + scrollY + TICK_MARGIN - document.documentElement.clientHeight : 0;
  if (over > 0) {
    const room = feedback.getBoundingClientRect().height - over;
    if (room >= MIN_FEEDBACK) feedback.style.maxHeight = `${room}px`;
    else task.style.maxHeight = `${Math.max(MIN_TASK, task.getBoundingClientRect().height - over)}px`;
  }
  [task.scrollTop, feedback.scrollTop] = scrolled;
  scrollable(task, -1);
  scrollable(feedback, null);
}

// scrollable marks el as cut short (class scrolls) or not; cut short it is
// a stop for the keyboard, to be read without a mouse, and otherwise has
// the tabindex given (null: none).
function scrollable(el, tabindex) {
  const scrolls = el.scrollHeight > el.clientHeight;
  el.classList.toggle("scrolls", scrolls);
  if (scrolls) el.setAttribute("tabindex", "0");
  else if (tabindex === null) el.removeAttribute("tabindex");
  else el.setAttribute("tabindex", String(tabindex));
}

// showVerdict scrolls a task cut short so that its buttons and the
// verdict below them are in view.
function showVerdict() {
  const task = $("task");
  $("task-feedback").scrollTop = 0;
  if (!task.classList.contains("scrolls")) return;
  task.scrollTop += $("task-actions").getBoundingClientRect().top - task.getBoundingClientRect().top - task.clientTop;
}

// belowTask: el is shown, below the task in the same column.
function belowTask(el) {
  const task = $("task");
  if (task.hidden || el.getClientRects().length === 0) return false;
  const t = task.getBoundingClientRect();
  const k = el.getBoundingClientRect();
  return k.top >= t.bottom && k.left < t.right && k.right > t.left;
}


