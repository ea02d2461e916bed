// The puzzle ladder's progress, kept in this browser: solved levels and daily puzzles with the
// moves used and the shortest solution's length.
const KEY = "boneyard.ladder";

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
  try {
    localStorage.setItem(KEY, JSON.stringify(progress));
  } catch {
    // Storage switched off: the result is shown, just not kept.
  }
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
