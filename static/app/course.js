// The page's side of the conversation with a course page that embeds it
// (host.js has the protocol, docs/EMBEDDING.md the messages): what the
// embed tells the course page. Outside an embed, or with an origin
// parameter that is not one, nothing is told.
import { connectHost } from "./host.js";

let host = null;

// connectCourse starts the conversation (connectHost's options); the
// course page's requests go to onRequest.
export function connectCourse(options) {
  host = connectHost(options);
}

export function tell(type, fields) {
  host?.post(type, fields);
}

// tellScenario names the scenario every later message is about.
export function tellScenario(name) {
  if (host) host.about.scenario = name;
}
