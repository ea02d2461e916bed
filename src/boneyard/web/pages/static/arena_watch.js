// The arena this account plays in, followed from any page of the site (as lichess does): when
// the arena pairs the player, the page they have open opens the new game by itself, and the
// game's page says so in the tab's title and with a sound. The arena's own page passes each
// view it gets to ``followArena``; any other page listens to the arena's socket itself.
import { play } from "./sound.js";
import { setNoticeTitle } from "./title.js";

const ARENA_KEY = "boneyard.arena"; // the id of the arena this browser's account plays in
const OPENED_KEY = "boneyard.arena.opened"; // the last arena game opened by itself
const SENT_KEY = "boneyard.arena.sent"; // (this tab) the game this page was sent to
const AGAIN_MS = 3000;

function stored(storage, key) {
  try {
    return storage.getItem(key);
  } catch {
    return null; // storage switched off: the arena's page still opens the game
  }
}

function store(storage, key, value) {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    // storage switched off: nothing remembered
  }
}

/** The view after a socket's "update" message, which carries only what changed since the last
 * message (the rows of the standings that changed, by index, and their count), see
 * web/people/standings.py; a "view" message is the whole view. */
export function applyUpdate(view, message) {
  if (message.type !== "update" || !view) return message;
  const next = { ...view };
  for (const [key, value] of Object.entries(message)) {
    if (key !== "type" && key !== "rows" && key !== "count") next[key] = value;
  }
  if ("count" in message) {
    const standings = (view.standings ?? []).slice(0, message.count);
    for (const [index, row] of message.rows) standings[index] = row;
    next.standings = standings;
  }
  return next;
}

/** One view of the arena (as ``GET /api/tournaments/{id}`` answers): remember whether this
 * account plays in it, and open a game it was just paired in. */
export function followArena(view) {
  if (!view?.me || view.error) return;
  document.documentElement.dataset.arena = view.me.paused ? "paused" : view.status; // for tests
  showOnGamePage(view);
  const playing = view.me.joined && view.status !== "finished";
  if (playing) store(localStorage, ARENA_KEY, view.id);
  else if (stored(localStorage, ARENA_KEY) === view.id) store(localStorage, ARENA_KEY, null);
  const url = view.me.game_url;
  if (!url) return;
  const gameId = url.split("?")[0].replace("/game/", "");
  // Each new game is opened once: a player who left it for another page is not pulled back.
  if (stored(localStorage, OPENED_KEY) === gameId) return;
  store(localStorage, OPENED_KEY, gameId);
  if (document.getElementById("game")?.dataset.gameId === gameId) return; // here already
  store(sessionStorage, SENT_KEY, gameId);
  document.title = "Your game has started";
  location.assign(url);
}

/** A game page of the arena says what comes next: a game opening by itself, or the end. */
function showOnGamePage(view) {
  const next = document.getElementById("arena-next");
  if (!next) return;
  if (view.status === "finished") next.textContent = "The arena is over: see the winners.";
  else if (view.me.paused) next.textContent = "You are paused: resume on the arena's page.";
  else if (view.me.joined && !view.me.game_url && view.status === "running") {
    next.textContent = "Your next game opens here by itself.";
  } else next.textContent = "";
}

/** On the game's page the arena sent this tab to: the tab's title and a sound say so, until
 * the player's first move (or the game's end). */
function greetSentGame() {
  const game = document.getElementById("game");
  if (!game || stored(sessionStorage, SENT_KEY) !== game.dataset.gameId) return;
  store(sessionStorage, SENT_KEY, null);
  setNoticeTitle("Your arena game started");
  play("start");
  game.dataset.arenaSent = "yes";
  let theirTurn = false;
  new MutationObserver((_changes, observer) => {
    const moved = theirTurn && game.dataset.mine === "no";
    theirTurn = game.dataset.mine === "yes";
    if (moved || game.dataset.terminal === "yes") {
      setNoticeTitle("");
      observer.disconnect();
    }
  }).observe(game, { attributes: true, attributeFilter: ["data-mine", "data-terminal"] });
}

function listen(id) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(id)}`);
  let view = null;
  socket.addEventListener("message", (event) => {
    view = applyUpdate(view, JSON.parse(event.data));
    followArena(view);
    if (view.error || view.status === "finished" || !view.me?.joined) socket.close();
  });
  socket.addEventListener("close", (event) => {
    // lost (not refused, not finished): listen again while the account still plays in it
    if (event.code < 4000 && stored(localStorage, ARENA_KEY) === id) setTimeout(() => listen(id), AGAIN_MS);
  });
}

greetSentGame();
const arena = stored(localStorage, ARENA_KEY);
if (arena && !document.getElementById("tournament")) listen(arena);
