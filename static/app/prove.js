// Proving a scenario. An exercise is sound when every step of its stage
// and of its solution does what it expects, its task is not solved on the
// stage alone, and the solution solves it. A scenario without a task is
// sound when its steps do what they expect. prove plays the scenario on a
// store of its own (play.js) and says what is not so; the page runs it
// before an exercise is exported, and scenario-check.mjs in course
// authors' CI.
import { kindOf } from "./steps.js";
import { evaluateTask } from "./exercise.js";
import { newPlayer, play, factsOf } from "./play.js";

// prove plays scenario (as parseScenario returns it) on the empty store
// that open() resolves to. It returns { ok, problems, before, after }:
// problems, each one line of text that names a step by its path in the
// scenario file (steps[1], task.solution.steps[0]), as parseScenario names
// a field; before and after, the task's results (evaluateTask) on the
// stage and after the solution, or null.
export async function prove(scenario, open) {
  const problems = [];
  const player = newPlayer(await open());
  const unmet = (path, list) => {
    for (const { index, step, problems: lines } of list) {
      for (const line of lines) problems.push(`${path}[${index}] (${kindOf(step.op).describe(step)}): ${line}`);
    }
  };
  unmet("steps", await play(player, scenario.steps));
  const { task } = scenario;
  if (!task) return { ok: problems.length === 0, problems, before: null, after: null };

  player.taken = [];
  const before = evaluateTask(task, await factsOf(player, scenario.bucket));
  if (before.solved) problems.push("the task is solved on the stage alone: every check passes before the student does anything");
  unmet("task.solution.steps", await play(player, task.solution.steps));
  const after = evaluateTask(task, await factsOf(player, scenario.bucket, task.solution.answer ?? ""));
  for (const c of after.checks) {
    if (!c.pass) problems.push(`the solution does not pass "${c.label}": ${[c.detail, (c.lines ?? []).join("; ")].filter(Boolean).join(" ")}`);
  }
  return { ok: problems.length === 0, problems, before, after };
}
