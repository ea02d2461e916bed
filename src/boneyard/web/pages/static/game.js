// The game page: one WebSocket per seat this page plays (or one spectator socket).
import {
  squaresOf, el, showBoard, mark, showLog, lastMoveSquares, showPanel, nameSquares,
  keepTextReadable, joinLog,
} from "./board.js";
import { rememberName, rememberedName } from "./identity.js";
import { rebuiltDrawing } from "./drawing.js";
import { animateChange, pictureLabels, pieceCount, rollPictures } from "./motion.js";
import { play, wireMuteSwitch } from "./sound.js";
import { applyFlip, flippable, wireFlip } from "./flip.js";
import { setTurnTitle } from "./title.js";
import { applyMemoryMode } from "./memory.js";
import { showRoundSummary } from "./round_summary.js";

const root = document.getElementById("game");
const gameId = root.dataset.gameId;
const tokens = root.dataset.tokens ? root.dataset.tokens.split(",") : [""];
const $ = (id) => document.getElementById(id);

const views = new Map(); // token -> latest view
const sockets = new Map(); // token -> WebSocket
const connected = new Set(); // tokens whose socket is open and has sent a view
let shown = tokens[0]; // the token whose view is on screen
let selected = null; // a picked square
let focused = null; // the square under the keyboard's focus ring
let pending = null; // a move clicked while the connection was down: {token, seq, action}
let requestNumber = 0;

// ----- the connection --------------------------------------------------------------------------

function connect(token) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}${query}`);
  sockets.set(token, socket);
  socket.onmessage = (event) => receive(token, JSON.parse(event.data));
  socket.onclose = (event) => {
    connected.delete(token);
    showBanner();
    if (event.code >= 4000) return; // refused: the message says why
    setTimeout(() => connect(token), 1000);
  };
}

/** The log's earlier lines, a page at a time: a view carries only the latest ones. */
async function showEarlier(token) {
  const v = views.get(token);
  const query = new URLSearchParams({ before: v.log_from });
  if (token) query.set("token", token);
  const response = await fetch(`/api/games/${gameId}/log?${query}`);
  if (!response.ok) return;
  const page = await response.json();
  const now = views.get(token);
  if (!now || now.log_from !== page.log_from + page.log.length) return; // moved on meanwhile
  now.log = page.log.concat(now.log);
  now.log_from = page.log_from;
  render();
}

// A game of computers alone thinks only while someone watches it: a page that is seen says so
// three times in the server's watch_seconds, and at once when it is seen again.
const WATCHING_EVERY_MS = Number(root.dataset.watchingMs) || 10000;

function sayWatching() {
  const v = views.get(shown);
  const computersOnly = v?.seats?.every((seat) => seat.kind === "computer");
  if (!computersOnly || v.terminal || document.visibilityState !== "visible") return;
  const socket = sockets.get(shown);
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "watching" }));
}

setInterval(sayWatching, WATCHING_EVERY_MS);
document.addEventListener("visibilitychange", sayWatching);

function showBanner() {
  const down = tokens.some((token) => !connected.has(token)) && views.size > 0;
  $("banner").hidden = !down;
  root.dataset.connected = down ? "no" : "yes";
}

/** Back online: send the move clicked meanwhile if the game is still where it was. */
function flushPending(token) {
  if (!pending || pending.token !== token) return;
  const move = pending;
  pending = null;
  const v = views.get(token);
  if (v && v.seq === move.seq && myTurn(v)) {
    send(move.action, token);
    $("message").textContent = "";
  } else {
    $("message").textContent = "Your move was not sent: the game moved on while you were away.";
  }
}

function receive(token, message) {
  if (message.type === "view") {
    const before = views.get(token);
    // A live update carries only the new log lines: joined to what this socket has (a gap:
    // ask for the whole view again). A whole view carries the latest lines, and keeps the
    // earlier ones this page asked for.
    if (!joinLog(before, message) && message.log_update) {
      sockets.get(token)?.send(JSON.stringify({ type: "sync" }));
      return;
    }
    if (message.drawing) {
      // Only what changed in the board's drawing: rebuilt from the one this socket has.
      if (!before?.svg) {
        sockets.get(token)?.send(JSON.stringify({ type: "sync" }));
        return;
      }
      message.svg = rebuiltDrawing(before.svg, message.drawing);
    }
    views.set(token, message);
    const reconnected = !connected.has(token);
    if (reconnected || !before || before.seq !== message.seq) {
      selected = null; // a new position (or a reconnection): nothing stays picked
      $("choices").replaceChildren();
      if (token === shown || tokens.length > 1) $("message").textContent = "";
      $("hint-text").textContent = "";
    }
    connected.add(token);
    showBanner();
    pickShown();
    render();
    if (reconnected) flushPending(token);
  } else if (message.type === "error") {
    $("message").textContent = message.detail;
    $("hint-text").textContent = ""; // a refused hint must not say "Thinking…" forever
    if (message.error === "stale") sockets.get(token)?.send(JSON.stringify({ type: "sync" }));
  } else if (message.type === "why") {
    $("message").textContent = message.reason;
  } else if (message.type === "hint") {
    $("message").textContent = ""; // an earlier refusal ("one hint every ...") is answered now
    const v = view();
    $("hint-text").textContent = `Hint: ${v?.labels?.[message.string] ?? message.string}`;
    mark($("board"), squaresOf(message.string), "hint");
  }
}

// ----- which seat is on screen ----------------------------------------------------------------

/** At one screen with several seats, show the seat to move. */
function pickShown() {
  for (const [token, view] of views) {
    if (view.seat !== null && view.current_player === view.seat && !view.terminal) {
      shown = token;
      return;
    }
  }
}

// With hidden information and several seats at one screen, a cover hides each seat's view until
// its person says who they are, so the others do not see its secrets. The cover depends only on
// whose view is on screen, never on which socket answered first after a load.
let uncoveredSeat = null; // the seat whose person last took the screen

function covered(v) {
  if (tokens.length < 2 || root.dataset.hidden !== "yes" || v.terminal) return false;
  return v.seat !== uncoveredSeat;
}

function renderCover(v) {
  const name = v.players[v.seat].name;
  $("prompt").textContent = `Pass the screen to ${name}.`;
  $("recent").replaceChildren();
  const button = el("button", { type: "button", id: "uncover" }, `I am ${name}: show my view`);
  button.addEventListener("click", () => {
    uncoveredSeat = v.seat;
    render();
    $("board").focus({ preventScroll: true });
  });
  $("board").replaceChildren(button);
  for (const id of ["panel", "log", "actions", "all-actions", "choices"]) $(id).replaceChildren();
  for (const id of ["hint", "quick-setup", "all-moves"]) $(id).hidden = true;
}

/** The seats people hold or held: one the computer took over from its person still counts,
 *  so a stand-in never turns a game between people into one against the computer. */
function peopleSeats(v) {
  return v.seats.filter((seat) => seat.person).map((seat) => seat.seat);
}

/** Fair play, as the server rules it: hints against the computer, at one screen (this page
 *  plays every person's seat) or in a game created with hints on. */
function hintsAllowed(v) {
  const people = peopleSeats(v);
  const held = new Set([...views.values()].map((seatView) => seatView.seat));
  return v.hints_on || people.length < 2 || people.every((seat) => held.has(seat));
}

function view() {
  return views.get(shown);
}

function myTurn(v) {
  return v && v.seat !== null && !v.watching && v.current_player === v.seat && !v.terminal;
}

// ----- drawing the page -------------------------------------------------------------------------

function label(v, string) {
  return v.labels?.[string] ?? string;
}

function render() {
  const v = view();
  if (!v) return;
  // The tab says when it is this page's move, for a game left in a background tab.
  const state = myTurn(v) ? "Your move · " : v.terminal ? "Game over · " : "";
  setTurnTitle(state);
  if (covered(v)) {
    root.dataset.covered = "yes";
    return renderCover(v);
  }
  root.dataset.covered = "no";
  const mine = myTurn(v);
  root.dataset.seq = v.seq; // for tests and scripts: the move number on screen
  root.dataset.seat = v.seat ?? "";
  root.dataset.mine = mine ? "yes" : "no";
  root.dataset.ending = v.session?.ending?.kind ?? ""; // before data-terminal: rated.js reads it
  root.dataset.terminal = v.terminal ? "yes" : "no";
  $("prompt").textContent = v.prompt ?? "";
  // A round's end (Bon-Bon), in the same render as the turn it ends: drawn later, a click on
  // the next round's first move could come first and fold it unseen.
  if (v.round_summary || document.querySelector("[data-round-summary]")) showRoundSummary(v);
  $("status").classList.toggle("your-turn", mine);
  const recent = $("recent");
  recent.replaceChildren(...(v.recent ?? []).map((line) => el("li", {}, line)));

  const board = $("board");
  const hadFocus = document.activeElement === board;
  const before = board.querySelector("svg");
  const picturesBefore = pictureLabels($("panel"));
  showBoard(board, v);
  const squares = nameSquares(board);
  applyFlip(board);
  $("flip").hidden = !flippable(board, v);
  keepTextReadable(board);
  if (focused && !squares.includes(focused)) focused = null;
  applyMemoryMode(v);
  mark(board, lastMoveSquares(v.log), "last");
  if (mine && !selected) mark(board, singleTargets(), "dest");
  if (selected) {
    mark(board, [selected], "sel");
    mark(board, destinations(selected).map((d) => d.to), "dest");
  }
  if (focused) {
    mark(board, [focused], "focus");
    board.setAttribute("aria-activedescendant", `square-${focused}`);
  } else {
    board.removeAttribute("aria-activedescendant");
  }
  if (hadFocus) board.focus({ preventScroll: true });

  showPanel($("panel"), v.panel);
  showBarFacts(v.panel, v.you_mark);
  showChange(v, before, picturesBefore, mine);
  showLog($("log"), v.log, v.players ?? [], v.log_from > 0 ? () => showEarlier(shown) : null);
  const seats = $("seats");
  seats.replaceChildren();
  // A puzzle has one player: a list of one ("Player (you)") says nothing.
  seats.hidden = $("players-title").hidden = (v.players ?? []).length < 2;
  for (const player of v.players ?? []) {
    const item = el("li", { "data-seat": player.seat }, player.listed ?? player.name);
    if (player.seat === v.current_player) item.classList.add("to-move");
    seats.appendChild(item);
  }
  showName(v);
  $("seed-hash").textContent = v.seed_hash;
  $("seed").textContent = v.seed ?? "";
  $("seed").parentElement.hidden = !v.seed;
  $("seed-note").hidden = Boolean(v.seed);
  $("replay-link").hidden = !v.terminal;
  $("hint").hidden = !(mine && hintsAllowed(v));
  $("hints-on").hidden = !(v.hints_on && peopleSeats(v).length > 1);
  $("quick-setup").hidden = !(mine && v.quick_setup);
  renderActions(v, mine);
}

/** The panel's first facts and this seat's own, in a line or two for the phone's bar. */
function showBarFacts(items, youMark) {
  const own = (item) => Boolean(youMark) && item.label.includes(youMark);
  const chosen = (items ?? []).filter((item, index) => index < 3 || own(item));
  const facts = chosen.map((item) => {
    const pair = el("div");
    pair.append(el("dt", {}, item.label), el("dd", {}, item.value));
    return pair;
  });
  $("bar-facts").replaceChildren(...facts);
}

let drawnSeq = null; // the move number last drawn: a higher one is a new position

/** A new position: the moved piece slides, a die rolls, and a sound says what happened. */
function showChange(v, before, picturesBefore, mine) {
  const moved = drawnSeq !== null && v.seq > drawnSeq;
  drawnSeq = v.seq;
  if (!moved) return;
  const after = $("board").querySelector("svg");
  animateChange(before, after, lastMoveSquares(v.log));
  rollPictures($("panel"), picturesBefore);
  const captured = before && after && pieceCount(after) < pieceCount(before);
  play(v.terminal ? "end" : captured ? "capture" : mine ? "turn" : "move");
}

function button(v, action, cls = "action") {
  const b = el("button", { type: "button", class: cls, "data-action": action.string }, label(v, action.string));
  b.addEventListener("click", () => {
    send(action.id);
    $("board").focus({ preventScroll: true });
  });
  return b;
}

// ----- the person's name -----------------------------------------------------------------------

let named = false; // this page gave its seat the remembered name once

/** A page of one person's seat (an invite link) in a game with other people shows their name,
 * which they may change; a seat opened without a name takes the name this browser remembers. */
function showName(v) {
  const form = $("name-form");
  const me = tokens.length === 1 && tokens[0] && v.seat !== null ? v.players?.[v.seat] : null;
  // against the computer alone nobody would read it
  const others = (v.players ?? []).filter((player) => player.seat !== v.seat && !player.computer);
  form.hidden = !me || me.computer || me.account || others.length === 0;
  if (form.hidden) return;
  const field = $("seat-name");
  if (document.activeElement !== field) field.value = me.person_name ?? "";
  const remembered = rememberedName();
  if (!me.person_name && remembered && !named) {
    named = true;
    saveName(remembered);
  }
}

async function saveName(name) {
  const response = await fetch(`/api/games/${gameId}/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: tokens[0], do: "name", name }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("message").textContent = `Your name was not saved: ${body.detail ?? "try again"}.`;
  } else if ($("message").textContent.startsWith("Your name was not saved")) {
    $("message").textContent = ""; // an earlier refusal is answered now
  }
}

$("name-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("seat-name").value.trim();
  if (!name) return;
  rememberName(name);
  named = true;
  saveName(name);
});

function renderActions(v, mine) {
  const actions = $("actions");
  const all = $("all-actions");
  actions.replaceChildren();
  all.replaceChildren();
  $("all-moves").hidden = !mine || v.legal.length === 0;
  if (!mine) return;
  for (const action of v.legal) {
    if (squaresOf(action.string).length === 0) actions.appendChild(button(v, action));
    all.appendChild(button(v, action, "action small"));
  }
}

// ----- what a click on a square means ---------------------------------------------------------

/** Legal two-square actions with ``square`` at one end: ``[{action, to}]``, those that start
 * there first, then those that end there read backwards (to a square not reached forwards): a
 * Bones domino may be clicked square by square in either order, and in the moving games a
 * piece may be fetched by clicking its destination first. */
function destinations(square) {
  const pairs = (view()?.legal ?? [])
    .map((action) => ({ action, squares: squaresOf(action.string) }))
    .filter(({ squares }) => squares.length === 2);
  const found = pairs
    .filter(({ squares }) => squares[0] === square)
    .map(({ action, squares }) => ({ action, to: squares[1] }));
  const forwards = new Set(found.map((d) => d.to));
  for (const { action, squares } of pairs) {
    if (squares[1] === square && !forwards.has(squares[0])) found.push({ action, to: squares[0] });
  }
  return found;
}

/** Whether a legal move starts on ``square`` (a piece of this seat that can move stands there). */
function movesFrom(square) {
  return (view()?.legal ?? []).some((action) => {
    const squares = squaresOf(action.string);
    return squares.length === 2 && squares[0] === square;
  });
}

/** Legal actions that name ``square`` alone: "put e3", "flip b2", "peek c3". */
function singlesAt(square) {
  return (view()?.legal ?? []).filter((a) => {
    const s = squaresOf(a.string);
    return s.length === 1 && s[0] === square;
  });
}

/** Every square a one-square action names: where a cone may be put, a bone placed. */
function singleTargets() {
  const targets = new Set();
  for (const action of view()?.legal ?? []) {
    const s = squaresOf(action.string);
    if (s.length === 1) targets.add(s[0]);
  }
  return [...targets];
}

function showChoices(actions) {
  const box = $("choices");
  box.replaceChildren();
  for (const action of actions) box.appendChild(button(view(), action, "action choice"));
}

function send(action, token = shown) {
  const v = views.get(token);
  if (!v) return;
  $("choices").replaceChildren();
  const socket = sockets.get(token);
  if (!connected.has(token) || socket?.readyState !== WebSocket.OPEN) {
    // Never lost: kept until the connection is back, then sent or visibly refused.
    pending = { token, seq: v.seq, action };
    $("message").textContent = "Not connected: your move will be sent when the connection is back.";
    return;
  }
  const message = { type: "act", seq: v.seq, request: ++requestNumber };
  if (typeof action === "number") message.action = action;
  else message.action_string = action;
  socket.send(JSON.stringify(message));
}

/** Ask the server, in words, why ``action`` cannot be played (the game knows its rules). */
function askWhy(action) {
  const socket = sockets.get(shown);
  if (socket?.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "why", action_string: action, request: ++requestNumber }));
  } else {
    $("message").textContent = "That move is not allowed now.";
  }
}

function clearSelection() {
  if (selected === null) return;
  selected = null;
  $("choices").replaceChildren();
  render();
}

function clickSquare(square) {
  const v = view();
  if (!v) return;
  if (v.seat === null || v.watching) {
    $("message").textContent = v.watching ? v.prompt : "You are watching: open an invite link to play.";
    return render();
  }
  if (!myTurn(v)) {
    $("message").textContent = v.terminal ? "The game is over." : "It is not your move yet.";
    return render();
  }
  $("message").textContent = "";
  if (selected === square) return clearSelection();
  if (selected) {
    const moves = destinations(selected).filter((d) => d.to === square).map((d) => d.action);
    if (moves.length === 1) return send(moves[0].id);
    if (moves.length > 1) return showChoices(moves);
    if (destinations(square).length === 0 && singlesAt(square).length === 0) {
      // Not a legal destination: drop the selection and say, in one line, why.
      const { action, to } = destinations(selected)[0];
      const tried = action.string.replace(new RegExp(`(?<![a-z0-9])${to}(?![0-9])`), square);
      selected = null;
      $("choices").replaceChildren();
      render();
      return askWhy(tried);
    }
  }
  const singles = singlesAt(square);
  if (singles.length === 1 && !movesFrom(square)) {
    // One click for the commonest move: an empty cell where a bone may be placed places it,
    // though a bone could also move there (moving is select-then-target, from the bone).
    selected = null;
    render();
    return send(singles[0].id);
  }
  if (destinations(square).length > 0) {
    selected = square;
    render();
    showChoices(singles);
    return;
  }
  selected = null;
  render();
  if (singles.length === 1) return send(singles[0].id);
  if (singles.length > 1) return showChoices(singles);
  const template = v.legal.find((a) => squaresOf(a.string).length === 1);
  if (template) {
    const [at] = squaresOf(template.string);
    return askWhy(template.string.replace(new RegExp(`(?<![a-z0-9])${at}(?![0-9])`), square));
  }
  $("message").textContent = `Nothing can be played on ${square} now.`;
}

/** The square under a click: the element's own data-square, a piece's, or one beneath it. */
function squareAt(event) {
  const own = event.target.closest?.("[data-square]");
  if (own) return own.getAttribute("data-square");
  for (const node of document.elementsFromPoint(event.clientX, event.clientY)) {
    const square = node.getAttribute?.("data-square");
    if (square) return square;
  }
  return event.target.closest?.("[data-cone]")?.getAttribute("data-cone") ?? null;
}

$("board").addEventListener("click", (event) => {
  const square = squareAt(event);
  if (square) clickSquare(square);
  else clearSelection();
});

// A click anywhere outside the board and its buttons drops the selection.
// (The path is taken as the click found it: the board may have been redrawn since.)
document.addEventListener("click", (event) => {
  const inside = event.composedPath().some((node) =>
    node.id === "board" || node.matches?.("button, a, summary, input, select, label"));
  if (!inside) clearSelection();
});

// ----- the keyboard: arrows move a focus ring over the squares, Enter picks -------------------

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function centreOf(square) {
  const node = $("board").querySelector(`svg [data-square="${CSS.escape(square)}"]`);
  const box = node?.getBoundingClientRect();
  return box ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : null;
}

/** The nearest square from ``square`` in direction ``(dx, dy)`` on screen. */
function nextSquare(square, [dx, dy]) {
  const here = centreOf(square);
  let best = null;
  let bestScore = Infinity;
  const seen = new Set();
  for (const node of $("board").querySelectorAll("svg [data-square]")) {
    const name = node.getAttribute("data-square");
    if (name === square || seen.has(name)) continue;
    seen.add(name);
    const there = centreOf(name);
    const along = (there.x - here.x) * dx + (there.y - here.y) * dy;
    if (along < 1) continue;
    const across = Math.abs((there.x - here.x) * dy) + Math.abs((there.y - here.y) * dx);
    const score = along + 3 * across;
    if (score < bestScore) [best, bestScore] = [name, score];
  }
  return best;
}

/** Where the keyboard's ring starts: the first square in reading order on screen (top row
 * first) where one of this seat's moves starts, else the board's top-left square. */
function firstSquare() {
  const own = new Set((view()?.legal ?? []).map((a) => squaresOf(a.string)[0]).filter(Boolean));
  const names = [...new Set([...$("board").querySelectorAll("svg [data-square]")].map(
    (node) => node.getAttribute("data-square"),
  ))];
  const placed = names
    .map((name) => ({ name, at: centreOf(name) }))
    .filter(({ at }) => at)
    .sort((a, b) => a.at.y - b.at.y || a.at.x - b.at.x);
  return (placed.find(({ name }) => own.has(name)) ?? placed[0])?.name ?? null;
}

$("board").addEventListener("keydown", (event) => {
  const first = firstSquare();
  if (!first) return;
  if (event.key in ARROWS) {
    event.preventDefault();
    focused = focused ? (nextSquare(focused, ARROWS[event.key]) ?? focused) : first;
    render();
  } else if ((event.key === "Enter" || event.key === " ") && focused) {
    // (a mouse click leaves the ring alone: it only follows the keyboard)
    event.preventDefault();
    clickSquare(focused);
  } else if (event.key === "Escape") {
    clearSelection();
  }
});

$("memory").addEventListener("change", () => render());

$("hint").addEventListener("click", () => {
  $("hint-text").textContent = "Thinking…";
  const others = tokens.filter((token) => token && token !== shown);
  sockets.get(shown)?.send(JSON.stringify({ type: "hint", tokens: others, request: ++requestNumber }));
});

$("quick-setup").addEventListener("click", () => {
  $("quick-setup").hidden = true;
  sockets.get(shown)?.send(JSON.stringify({ type: "quick_setup", request: ++requestNumber }));
  $("board").focus({ preventScroll: true });
});

window.addEventListener("resize", () => render());

/** The rules in short are open the first time this browser shows this game, folded after. */
function openHowToPlayTheFirstTime() {
  const box = $("how-to-play");
  if (!box) return;
  const key = `boneyard.seen.${root.dataset.game}`;
  try {
    if (localStorage.getItem(key)) return;
    localStorage.setItem(key, "yes");
  } catch {
    return; // storage switched off: nothing to remember it by, so it stays folded
  }
  box.open = true;
}

openHowToPlayTheFirstTime();
wireMuteSwitch($("mute"));
wireFlip($("flip"), gameId, () => render());
$("how-to-play-done")?.addEventListener("click", () => {
  $("how-to-play").open = false;
  $("status").scrollIntoView({ block: "nearest" });
  $("board").focus({ preventScroll: true });
});
for (const token of tokens) connect(token);
