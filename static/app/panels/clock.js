// The Clock panel (#clock-panel): the store's clock (the chapter's t, and
// the date it is), and the controls that move it: set it to seconds or a
// date, step it by seconds or days, take it to the next midnight UTC, or
// slide it.
import { $ } from "../dom.js";
import { fmt, parseSeconds } from "../model.js";
import { parseTime, roundClock, showDate } from "../dates.js";
import { state } from "../state.js";
import { run } from "../runner.js";

export function wire() {
  $("clock-set-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const step = clockStep($("clock-input").value);
    if (step) run(step);
  });
  for (const b of document.querySelectorAll(".day-btn")) {
    b.addEventListener("click", () => run({ op: "advance", days: Number(b.dataset.days) }));
  }
  $("midnight-btn").addEventListener("click", () => run({ op: "nextMidnight" }));
  for (const b of document.querySelectorAll(".step-btn")) {
    b.addEventListener("click", () => run({ op: "clock", now: roundClock(state.now + Number(b.dataset.step)) }));
  }
  $("clock-step-btn").addEventListener("click", () => {
    const v = readClock($("clock-step").value);
    if (v !== null) run({ op: "clock", now: roundClock(state.now + v) });
  });
  $("clock-slider").addEventListener("change", (ev) => run({ op: "clock", now: Number(ev.target.value) }));
}

// readClock reads seconds from a field, or says what is wrong with them
// and returns null.
function readClock(text) {
  const v = parseSeconds(text);
  if (v.error || v.value === null) {
    $("clock-error").textContent = v.error ? `Clock: ${v.error}.` : "Enter a time in seconds, for example 14.999.";
    $("clock-error").hidden = false;
    return null;
  }
  $("clock-error").hidden = true;
  return v.value;
}

// clockStep reads the "Set to" field: seconds, or a date (the clock then
// shows that instant).
function clockStep(text) {
  if (!/^\s*\d{4}-/.test(text)) {
    const v = readClock(text);
    return v === null ? null : { op: "clock", now: v };
  }
  const t = parseTime(text);
  $("clock-error").hidden = !t.error;
  $("clock-error").textContent = t.error ? `Clock: ${t.error}.` : "";
  return t.error ? null : { op: "clock", time: text.trim() };
}

export function render(state) {
  $("clock-now").textContent = fmt(state.now);
  $("clock-date").textContent = showDate(state.origin + state.now);
  const slider = $("clock-slider");
  const max = Math.max(60, Math.ceil((state.now * 1.5) / 10) * 10);
  slider.min = String(Math.min(0, Math.floor(state.now)));
  slider.max = String(max);
  slider.value = String(state.now);
  slider.setAttribute("aria-valuetext", `${fmt(state.now)} seconds`);
}
