// The session of play under the board: how the game ended, offers waiting, the buttons to
// resign, offer a draw, call the game off, take back a move, hand an absent player's seat to
// the computer, and the rematch; the series score; and "My games" kept up to date.
// It keeps its own sockets (without drawings) and asks the server by HTTP.
import { joinLog } from "./board.js";
import { movesWord, recordResult, startPuzzle } from "./ladder_progress.js";
import { entryFromView, rememberGame } from "./mygames.js";
import { setOfferTitle } from "./title.js";

const root = document.getElementById("game");
const gameId = root.dataset.gameId;
const tokens = root.dataset.tokens ? root.dataset.tokens.split(",") : [];
const $ = (id) => document.getElementById(id);
/** A refusal, in words, next to the session's buttons. */
const say = (text) => {
  $("session-message").textContent = text;
};
const views = new Map(); // token -> latest view (with its session)
let asked = false; // this page pressed Rematch: follow the next game as soon as it exists

/** A seat's label with the page's own mark, said once: "alice (White, you)", not
 * "alice (White) (you)"; "White (you)" where the label has no brackets. */
function markedOnce(label, mark) {
  if (mark === " (you)" && label.endsWith(")")) return `${label.slice(0, -1)}, you)`;
  return label + mark;
}

function connect(token) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams({ draw: "false" });
  if (token) query.set("token", token);
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}?${query}`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "view") return;
    joinLog(views.get(token), message);
    views.set(token, message);
    render();
  });
  socket.addEventListener("close", (event) => {
    if (event.code < 4000) setTimeout(() => connect(token), 1500);
  });
}

/** The view the buttons act for: the seat to move at a shared screen, else the first. */
function current() {
  let chosen = null;
  for (const [token, view] of views) {
    if (!chosen) chosen = [token, view];
    if (view.seat !== null && view.current_player === view.seat) return [token, view];
  }
  return chosen;
}

function label(view, seat) {
  // as the server wrote it: sides start with a capital, a person's name stays as written
  return view.seats[seat]?.label ?? "";
}

function render() {
  const found = current();
  if (!found) return;
  const [token, view] = found;
  const session = view.session;
  if (!session) return;
  remember();
  const can = session.can;
  for (const button of document.querySelectorAll("[data-session]")) {
    button.hidden = !token || !can[button.dataset.session];
  }
  showQuestion(token, view, session);
  showNext(view, session);
  showSeries(view, session.series);
  const waiting = $("session-waiting");
  const open = session.open_seats.length > 0 && !view.terminal;
  const away = can.stand_in || can.call_off;
  waiting.hidden = !away && !open;
  if (open) {
    waiting.textContent = "Waiting for an opponent: this game is listed in the lobby, where anyone can join it.";
  } else if (away) {
    // A rated game: the computer never plays for them; the win can be claimed instead.
    const choice = can.claim_victory
      ? " You may claim the win, or call the game off (it will not count)."
      : can.call_off
        ? " You may call the game off (it will not count)."
        : "";
    waiting.textContent = `${label(view, session.waiting.seat)} has not moved for ${session.waiting.seconds} seconds.${choice}`;
  }
  const events = $("session-events");
  events.replaceChildren();
  // The prompt says how the game ended (the ending's own words): its event once more under the
  // buttons would be the third time the page said it.
  const endingEvent = session.ending ? session.events.findLastIndex((event) => event.kind === session.ending.kind) : -1;
  for (const [index, event] of session.events.entries()) {
    if (index === endingEvent) continue;
    const item = document.createElement("li");
    item.dataset.kind = event.kind;
    item.textContent = event.words;
    events.appendChild(item);
  }
  root.dataset.sessionEnded = session.ending ? session.ending.kind : "";
  showPuzzle(session.puzzle);
}

/** A puzzle of the ladder (or the daily one): moves used against the shortest solution. */
function showPuzzle(puzzle) {
  const box = $("session-puzzle");
  box.hidden = !puzzle;
  if (!puzzle) return;
  const what = puzzle.level ? `Level ${puzzle.level}, ${puzzle.bones} bones` : `Daily puzzle, ${puzzle.bones} bones`;
  const text = puzzle.solved
    ? `Solved in ${movesWord(puzzle.used)}; the shortest solution takes ${movesWord(puzzle.shortest)}.`
    : `${what}: the shortest solution takes ${movesWord(puzzle.shortest)}. Moves so far: ${puzzle.used}.`;
  $("session-puzzle-text").textContent = text;
  box.dataset.solved = puzzle.solved ? "yes" : "no";
  if (puzzle.solved && tokens.length) recordResult(puzzle);
  const link = $("session-solution-link");
  link.hidden = !puzzle.solution_url;
  if (puzzle.solution_url) link.href = puzzle.solution_url;
  $("session-solution").hidden = Boolean(puzzle.solution_url) || !tokens.length;
  const next = $("session-next-level");
  next.hidden = !(puzzle.solved && puzzle.level && puzzle.level < 9);
  next.dataset.level = puzzle.level ? puzzle.level + 1 : "";
}

$("session-solution").addEventListener("click", async () => {
  const response = await fetch(`/api/ladder/games/${gameId}/solution`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: tokens[0] }),
  });
  if (!response.ok) say("The solution could not be shown; try again.");
});

$("session-next-level").addEventListener("click", () => {
  startPuzzle(`/api/ladder/levels/${$("session-next-level").dataset.level}`).catch(() => {
    say("The next level could not be dealt; try again.");
  });
});

let seenNotice = ""; // the notice (a resignation, a rematch) this person closed

/** What the other side did that this person should see at once: it resigned, or a rematch is
 * ready. ``[key, words, title]`` or null. */
function notice(view, session) {
  const ending = session.ending;
  if (ending?.kind === "resign" && ending.seat !== view.seat && view.seat !== null) {
    return [`resign:${ending.seat}`, `${ending.words}.`, `${label(view, ending.seat)} resigned`];
  }
  if (session.next_url && !asked && session.ending?.kind !== "moved") {
    return [`rematch:${session.next_url}`, "A rematch is offered: the next game is ready.", "Rematch offered"];
  }
  return null;
}

function showQuestion(token, view, session) {
  const box = $("session-question");
  let text = null;
  let yes = null;
  let no = null;
  let title = "";
  const news = notice(view, session);
  if (session.can.answer_draw) {
    text = `${label(view, session.draw_offer.seat)} offers a draw.`;
    yes = ["accept_draw", "Accept the draw"];
    no = ["decline_draw", "Play on"];
    title = "Draw offered";
  } else if (session.can.answer_takeback) {
    text = `${label(view, session.takeback_request.seat)} asks to take back their last move.`;
    yes = ["accept_takeback", "Allow it"];
    no = ["decline_takeback", "Refuse"];
    title = "Takeback asked";
  } else if (news && news[0] !== seenNotice) {
    [, text, title] = news;
    yes = news[0].startsWith("rematch") ? ["follow_rematch", "Play it"] : null;
    no = [`close:${news[0]}`, "Close"];
  } else if (pendingConfirm && session.can[pendingConfirm]) {
    text = CONFIRM[pendingConfirm];
    yes = [pendingConfirm, "Yes"];
    no = [null, "No"];
  } else if (session.draw_offer && session.draw_offer.seat === view.seat) {
    text = "You offered a draw: waiting for the answer.";
  } else if (session.takeback_request && session.takeback_request.seat === view.seat) {
    text = "You asked to take back your move: waiting for the answer.";
  }
  box.hidden = text === null;
  setOfferTitle(title);
  $("session-question-text").textContent = text ?? "";
  for (const [id, choice] of [["session-yes", yes], ["session-no", no]]) {
    const button = $(id);
    button.hidden = !choice;
    button.textContent = choice ? choice[1] : "";
    button.dataset.request = choice?.[0] ?? "";
  }
}

function showNext(view, session) {
  const link = $("session-next");
  const nextUrls = [...views.values()].map((v) => v.session?.next_url).filter(Boolean);
  if (nextUrls.length) {
    const [path] = nextUrls[0].split("?t=");
    const joined = nextUrls.map((url) => url.split("?t=")[1]).join(",");
    link.href = `${path}?t=${joined}`;
    link.hidden = false;
    if (asked || session.follow) location.assign(link.href);
  } else {
    link.hidden = true;
  }
  $("session-new").hidden = !view.terminal;
}

function showSeries(view, series) {
  const line = $("session-series");
  line.hidden = !series;
  if (!series) return;
  const parts = series.labels.map((name, seat) => {
    const me = view.seat === seat && tokens.length === 1 ? (view.you_mark ?? "") : "";
    const wins = series.wins[seat];
    return `${markedOnce(name, me)} ${wins} ${wins === 1 ? "win" : "wins"}`;
  });
  let text = `Game ${series.number} of the series: ${parts.join(", ")}`;
  if (series.draws) text += `, ${series.draws} drawn`;
  if (series.points) text += `. Points so far: ${series.labels.map((n, s) => `${n} ${series.points[s]}`).join(", ")}`;
  line.textContent = `${text}.`;
}

const CONFIRM = {
  resign: "Resign this game?",
  abort: "Call the game off? It will not count.",
  claim_victory: "Claim the win? The game ends now and counts as your win.",
  call_off: "Call the game off? It will not count.",
};
let pendingConfirm = null;

async function ask(what) {
  const found = current();
  if (!found || !found[0]) return;
  const [token] = found;
  if (what === "rematch") asked = true;
  const response = await fetch(`/api/games/${gameId}/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, do: what }),
  });
  if (response.ok) say("");
  else {
    const body = await response.json().catch(() => ({}));
    say(body.detail ?? "That did not work; try again.");
    asked = false;
  }
}

for (const button of document.querySelectorAll("[data-session]")) {
  button.addEventListener("click", () => {
    const what = button.dataset.session;
    if (CONFIRM[what]) {
      pendingConfirm = what;
      render();
      return;
    }
    ask(what);
  });
}

for (const id of ["session-yes", "session-no"]) {
  $(id).addEventListener("click", () => {
    const what = $(id).dataset.request;
    pendingConfirm = null;
    if (what.startsWith("close:")) seenNotice = what.slice("close:".length);
    else if (what === "follow_rematch") location.assign($("session-next").href);
    else if (what) ask(what);
    render();
  });
}

function remember() {
  if (!tokens.length) return;
  const view = views.get(tokens[0]);
  if (view) rememberGame(entryFromView(view, tokens));
}

if (tokens.length) for (const token of tokens) connect(token);
else connect("");
// The stand-in button (a rated game: claim the win, call it off) appears once the other side
// has been silent long enough.
setInterval(() => {
  for (const token of views.keys()) {
    if (token) fetch(`/api/games/${gameId}/session?token=${encodeURIComponent(token)}`)
      .then((r) => (r.ok ? r.json() : null))
      .then((session) => {
        const view = views.get(token);
        if (session && view) {
          view.session = session;
          render();
        }
      })
      .catch(() => {});
  }
}, 15000);
