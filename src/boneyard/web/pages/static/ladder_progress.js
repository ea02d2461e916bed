// The puzzle ladder's progress, kept in this browser: solved levels and daily puzzles with the
// moves used and the shortest solution's length. A signed-in browser keeps it with the account
// as well (/api/me/ladder), so every device shows the same ladder.
const KEY = "boneyard.ladder";

const signedIn = () => Boolean(document.querySelector("header.top .signed-in"));

function save(progress) {
  try {
    localStorage.setItem(KEY, JSON.stringify(progress));
  } catch {
    // Storage switched off: the result is shown, just not kept.
  }
}

/** The best result of each puzzle in ``from`` kept in ``into``. */
function merge(into, from) {
  for (const table of ["levels", "daily"]) {
    for (const [key, result] of Object.entries(from[table] ?? {})) {
      const before = into[table][key];
      if (!before || result.used < before.used) into[table][key] = result;
    }
  }
  return into;
}

async function send(progress) {
  const response = await fetch("/api/me/ladder", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(progress),
  });
  return response.ok ? response.json() : null;
}

/** This browser's progress with the account's (signed in), merged and kept both ways. */
export async function loadAccountProgress() {
  const progress = loadProgress();
  if (!signedIn()) return progress;
  try {
    const kept = await send(progress);
    if (kept) save(merge(progress, kept));
  } catch {
    // Offline: this browser's own progress shows.
  }
  return progress;
}

export function loadProgress() {
  try {
    const progress = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    return { levels: progress.levels ?? {}, daily: progress.daily ?? {} };
  } catch {
    return { levels: {}, daily: {} };
  }
}

/** Keep the best result of a level (or a date). */
export function recordResult(puzzle) {
  const progress = loadProgress();
  const table = puzzle.level ? progress.levels : progress.daily;
  const key = puzzle.level ?? puzzle.date;
  const before = table[key];
  if (!before || puzzle.used < before.used) table[key] = { used: puzzle.used, shortest: puzzle.shortest };
  save(progress);
  if (signedIn()) send(progress).catch(() => {}); // offline: sent with the next ladder page
}

/** Start a level (or the daily puzzle) and go to its board. */
export async function startPuzzle(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error((await response.json().catch(() => ({}))).detail ?? "try again");
  const dealt = await response.json();
  location.assign(dealt.url);
}

export function today() {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function movesWord(n) {
  return `${n} move${n === 1 ? "" : "s"}`;
}
