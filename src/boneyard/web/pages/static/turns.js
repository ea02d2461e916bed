// Your turn, wherever you are (as lichess's count on its games menu): every page of the site
// asks the server every so often which of this browser's games wait for its move (the seats
// kept in local storage, and the signed-in account's), shows how many beside *My games* and in
// the tab's title ("(2) My games"), and, once the person asked for it with the button of *My
// games* (never by itself), the browser tells of each game that comes to their move.
// The tabs of one browser share one answer (local storage): only one of them asks at a time.
import { loadGames } from "./mygames.js";
import { setWaitingTitle } from "./title.js";

const ANSWER_KEY = "boneyard.turns"; // the last answer, {at, about, games: [{game_id, title, url}]}
const TOLD_KEY = "boneyard.turns.told"; // the games already notified, so no tab tells twice
export const NOTIFY_KEY = "boneyard.turns.notify"; // "on" once the person asked to be told
const EVERY_MS = 30000;
const MOST_SEATS = 100;

function read(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null") ?? fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or switched off: this tab still shows its own answer
  }
}

/** Whether this browser tells of the person's turns (asked for with the button, allowed). */
export function notifying() {
  return read(NOTIFY_KEY, "off") === "on" && "Notification" in window && Notification.permission === "granted";
}

function show(games) {
  const count = games.length;
  const badge = document.getElementById("turn-count");
  if (badge) {
    badge.hidden = count === 0;
    badge.textContent = String(count);
    // the badge is a picture of the number: the link says it in words
    const link = badge.closest("a");
    if (count === 0) link.removeAttribute("aria-label");
    else link.setAttribute("aria-label", `My games, ${count} ${count === 1 ? "game waits" : "games wait"} for your move`);
  }
  document.documentElement.dataset.turns = String(count); // for tests
  setWaitingTitle(count ? `(${count}) ` : "");
}

function tell(games) {
  const told = new Set(read(TOLD_KEY, []));
  const here = document.getElementById("game")?.dataset.gameId;
  for (const game of games) {
    if (told.has(game.game_id)) continue;
    told.add(game.game_id);
    // The page of that very game, in sight, says so itself.
    if (game.game_id === here && document.visibilityState === "visible") continue;
    if (!notifying()) continue;
    const note = new Notification(`Your move in ${game.title}`, {
      body: "Your opponent has moved: it is your turn.",
      tag: `boneyard-${game.game_id}`,
    });
    note.addEventListener("click", () => {
      window.focus();
      location.assign(game.url);
    });
  }
  // A game that is not waiting any more may be told again when it comes back to this person.
  const waiting = new Set(games.map((game) => game.game_id));
  write(TOLD_KEY, [...told].filter((id) => waiting.has(id)));
}

function heard(answer) {
  show(answer.games);
  tell(answer.games);
}

async function ask() {
  const seats = loadGames()
    .filter((game) => game.tokens?.length === 1 && !game.over) // one seat of a game on
    .slice(0, MOST_SEATS)
    .map((game) => ({ game_id: game.id, token: game.tokens[0] }));
  // Who asks about what: an answer for another account, or for fewer games, is not this one.
  const account = document.querySelector("header.top .signed-in")?.textContent ?? "";
  const about = `${account}|${seats.map((seat) => seat.game_id).join(",")}`;
  const last = read(ANSWER_KEY, null);
  if (last && last.about === about && Date.now() - last.at < EVERY_MS / 2) {
    heard(last); // another tab asked a moment ago
    return;
  }
  try {
    const response = await fetch("/api/turns", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seats }),
    });
    if (!response.ok) return; // past the budget, or the server is busy: the next time
    const answer = { at: Date.now(), about, games: (await response.json()).games };
    write(ANSWER_KEY, answer);
    heard(answer);
  } catch {
    // offline: the count stays as it was
  }
}

/** The person asked to be told (the button of *My games*): the games waiting now are not
 * news; the next ones are. */
export function startTelling() {
  write(NOTIFY_KEY, "on");
  write(TOLD_KEY, (read(ANSWER_KEY, null)?.games ?? []).map((game) => game.game_id));
}

export function stopTelling() {
  write(NOTIFY_KEY, "off");
}

/** Ask now (a move was just made on this page, the person turned notifications on). */
export function askAgain() {
  write(ANSWER_KEY, null);
  ask();
}

window.addEventListener("storage", (event) => {
  if (event.key === ANSWER_KEY && event.newValue) heard(JSON.parse(event.newValue));
});
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") ask();
});
// This page's own game: a move made or received here changes the count at once.
const game = document.getElementById("game");
if (game) {
  new MutationObserver((changes) => {
    if (changes.some((change) => change.oldValue !== game.getAttribute(change.attributeName))) askAgain();
  }).observe(game, { attributes: true, attributeOldValue: true, attributeFilter: ["data-mine", "data-terminal"] });
}
const cached = read(ANSWER_KEY, null);
if (cached) show(cached.games);
ask();
setInterval(ask, EVERY_MS);
