// Built-in scenarios: plain JSON files under scenarios/, listed in
// scenarios/index.json. docs/SCENARIOS.md describes the format.
import { normalizeSteps, describeStep } from "./model.js";

const BASE = new URL("../scenarios/", import.meta.url);

async function getJSON(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  return res.json();
}

// parseScenario checks a scenario object and returns it ready to run.
function parseScenario(raw, name) {
  if (!raw || typeof raw !== "object") throw new Error(`scenario ${name}: not a JSON object`);
  const bucket = typeof raw.bucket === "string" ? raw.bucket : "";
  const { steps, error } = normalizeSteps(raw.steps, bucket);
  if (error) throw new Error(`scenario ${name}: ${error}`);
  return {
    name,
    title: typeof raw.title === "string" ? raw.title : name,
    description: typeof raw.description === "string" ? raw.description : "",
    steps,
    titles: steps.map(describeStep),
  };
}

// loadScenarios fetches every scenario the index lists, in index order.
export async function loadScenarios() {
  const index = await getJSON(new URL("index.json", BASE));
  if (!Array.isArray(index.scenarios)) throw new Error("scenarios/index.json: needs a scenarios list");
  return Promise.all(index.scenarios.map(async (name) => parseScenario(await getJSON(new URL(`${encodeURIComponent(name)}.json`, BASE)), name)));
}
