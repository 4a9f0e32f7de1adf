// The clock's dates. The store's clock counts seconds from its origin, a
// Unix time in UTC; S3's lifecycle works on the date origin + now, in
// whole days that end at midnight UTC. Pure functions, no DOM.

export const DAY = 86400;

// The times a clock may show (the store refuses others): years 1 to 9999.
const EARLIEST = -62135596800;
const LATEST = 253402300799;

const pad = (n, width = 2) => String(n).padStart(width, "0");

// showDate prints a Unix time as "2014-01-19 00:00:00 UTC", with the
// fraction of a second when there is one (at most three decimals).
export function showDate(unix) {
  if (typeof unix !== "number" || !Number.isFinite(unix)) return String(unix);
  const ms = Math.round(unix * 1000);
  const d = new Date(ms);
  const frac = ms % 1000 === 0 ? "" : `.${pad(((ms % 1000) + 1000) % 1000, 3).replace(/0+$/, "")}`;
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac} UTC`;
}

// isoTime prints a Unix time in RFC 3339 as the store does
// ("2014-01-19T00:00:00Z", "2014-01-19T00:00:00.5Z"): the form of the
// times in the store's answers, and of a scenario's expectations.
export function isoTime(unix) {
  const ms = Math.round(unix * 1000);
  const d = new Date(ms);
  const frac = ms % 1000 === 0 ? "" : `.${pad(((ms % 1000) + 1000) % 1000, 3).replace(/0+$/, "")}`;
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac}Z`;
}

// roundClock rounds a clock reading the page computed (now + a step) to
// the microsecond, so that adding 0.1 ten times reads 1.
export const roundClock = (n) => Math.round(n * 1e6) / 1e6;

// midnightBefore is the midnight UTC at or before the Unix time t.
export function midnightBefore(t) {
  return Math.floor(t / DAY) * DAY;
}

// nextMidnight is the clock reading (seconds since origin) of the first
// midnight UTC after the clock reading now.
export function nextMidnight(origin, now) {
  return midnightBefore(origin + now) + DAY - origin;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2}))?$/;

// parseTime reads a date as a learner or a scenario writes it: RFC 3339
// ("2014-01-15T10:30:00Z", with an offset or a fraction), or a day alone
// ("2014-01-19", its midnight UTC). It returns { value } (a Unix time) or
// { error }.
export function parseTime(text) {
  const s = String(text ?? "").trim();
  const m = RFC3339.exec(s);
  if (!m) return { error: `"${s}" is not a date like 2014-01-19 or 2014-01-15T10:30:00Z` };
  const [, y, mo, d, h = "00", mi = "00", sec = "00", frac = "", zone = "Z"] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  const check = new Date(ms);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59) {
    return { error: `"${s}" is not a day of the calendar` };
  }
  let offset = 0;
  if (zone !== "Z" && zone !== "z") {
    const sign = zone[0] === "-" ? -1 : 1;
    offset = sign * (Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(4, 6)) * 60);
  }
  // Date.UTC maps the years 0 to 99 onto 1900 to 1999.
  const years = Number(y) < 100 ? new Date(ms).setUTCFullYear(Number(y)) : ms;
  const value = years / 1000 + (frac ? Number(`0${frac}`) : 0) - offset;
  if (value < EARLIEST || value > LATEST) return { error: `"${s}" is outside the years 1 to 9999` };
  return { value };
}

// parseExpiryHeader reads x-amz-expiration (expiry-date="Sun, 19 Jan 2014
// 00:00:00 GMT", rule-id="three-days") into { date, ruleId }, the date in
// RFC 3339, or returns null when there is no header.
export function parseExpiryHeader(value) {
  if (value === null || value === undefined) return null;
  const date = /expiry-date="([^"]*)"/.exec(value)?.[1];
  const rule = /rule-id="([^"]*)"/.exec(value)?.[1];
  if (date === undefined || rule === undefined) return { date: value, ruleId: "" };
  let ruleId = rule;
  try {
    ruleId = decodeURIComponent(rule.replace(/\+/g, " "));
  } catch {
    // Not percent-encoded as S3 does: shown as sent.
  }
  const ms = Date.parse(date);
  return { date: Number.isNaN(ms) ? date : isoTime(ms / 1000), ruleId };
}
