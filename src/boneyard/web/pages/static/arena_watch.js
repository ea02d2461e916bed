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

/** One view of the arena (as ``GET /api/tournaments/{id}`` answers): remember whether this
 * account plays in it, and open a game it was just paired in. */
export function followArena(view) {
  if (!view?.me || view.error) return;
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

/** On the game's page the arena sent this tab to: the tab's title and a sound say so, until
 * the first move. */
function greetSentGame() {
  const game = document.getElementById("game");
  if (!game || stored(sessionStorage, SENT_KEY) !== game.dataset.gameId) return;
  store(sessionStorage, SENT_KEY, null);
  setNoticeTitle("Your arena game started");
  play("start");
  game.dataset.arenaSent = "yes";
  let firstSeq = game.dataset.seq; // the game's first view may not have come yet
  new MutationObserver((_changes, observer) => {
    if (firstSeq === undefined) firstSeq = game.dataset.seq;
    else if (game.dataset.seq !== firstSeq) {
      setNoticeTitle("");
      observer.disconnect();
    }
  }).observe(game, { attributes: true, attributeFilter: ["data-seq"] });
}

function listen(id) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(id)}`);
  socket.addEventListener("message", (event) => {
    const view = JSON.parse(event.data);
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
