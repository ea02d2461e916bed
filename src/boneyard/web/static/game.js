// The game page: one WebSocket per seat this page plays (or one spectator socket).
import { squaresOf, el, showBoard, mark, showLog, lastMoveSquares, showFacts } from "./board.js";

const root = document.getElementById("game");
const gameId = root.dataset.gameId;
const tokens = root.dataset.tokens ? root.dataset.tokens.split(",") : [""];
const $ = (id) => document.getElementById(id);

const views = new Map(); // token -> latest view
const sockets = new Map(); // token -> WebSocket
let shown = tokens[0]; // the token whose view is on screen
let selected = null; // a picked square
let requestNumber = 0;

function connect(token) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}${query}`);
  sockets.set(token, socket);
  socket.onmessage = (event) => receive(token, JSON.parse(event.data));
  socket.onclose = (event) => {
    if (event.code >= 4000) return; // refused: the message says why
    setTimeout(() => connect(token), 1000);
  };
}

function receive(token, message) {
  if (message.type === "view") {
    const before = views.get(token);
    if (message.log_from > 0) {
      // A live update carries only the new log lines: join them to what this socket has.
      if (!before || before.log.length < message.log_from) {
        sockets.get(token)?.send(JSON.stringify({ type: "sync" }));
        return;
      }
      message.log = before.log.slice(0, message.log_from).concat(message.log);
    }
    views.set(token, message);
    if (!before || before.seq !== message.seq) {
      selected = null;
      if (token === shown || tokens.length > 1) $("message").textContent = "";
      $("hint-text").textContent = "";
    }
    pickShown();
    render();
  } else if (message.type === "error") {
    $("message").textContent = message.detail;
    if (message.error === "stale") sockets.get(token)?.send(JSON.stringify({ type: "sync" }));
  } else if (message.type === "hint") {
    $("hint-text").textContent = `Hint: ${message.string}`;
    mark($("board"), squaresOf(message.string), "hint");
  }
}

/** At one screen with several seats, show the seat to move. */
function pickShown() {
  for (const [token, view] of views) {
    if (view.seat !== null && view.current_player === view.seat && !view.terminal) {
      if (token !== shown || coveredSeat === undefined) cover(view.seat);
      shown = token;
      return;
    }
  }
  if (coveredSeat === undefined) coveredSeat = null;
}

// With hidden information and several seats at one screen, a cover hides the next seat's view
// until that person clicks, so the others do not see its secrets.
let coveredSeat; // undefined: nothing shown yet; null: no cover; else the seat behind the cover

function cover(seat) {
  coveredSeat = tokens.length > 1 && root.dataset.hidden === "yes" ? seat : null;
}

function renderCover(v) {
  const label = v.seats[v.seat].label;
  $("status").textContent = `${v.status} — pass the screen to ${label}`;
  const button = el("button", { type: "button", id: "uncover" }, `I am ${label}: show my view`);
  button.addEventListener("click", () => {
    coveredSeat = null;
    render();
  });
  $("board").replaceChildren(button);
  for (const id of ["facts", "log", "actions", "all-actions", "choices"]) $(id).replaceChildren();
  $("hint").hidden = true;
}

function view() {
  return views.get(shown);
}

function myTurn(v) {
  return v && v.seat !== null && v.current_player === v.seat && !v.terminal;
}

function render() {
  const v = view();
  if (!v) return;
  if (coveredSeat !== null && coveredSeat !== undefined && v.seat === coveredSeat) {
    root.dataset.covered = "yes";
    return renderCover(v);
  }
  root.dataset.covered = "no";
  const mine = myTurn(v);
  root.dataset.seq = v.seq; // for tests and scripts: the move number on screen
  root.dataset.seat = v.seat ?? "";
  root.dataset.mine = mine ? "yes" : "no";
  root.dataset.terminal = v.terminal ? "yes" : "no";
  let status = v.status;
  if (v.seat !== null) {
    const me = v.seats[v.seat].label;
    status += mine ? ` — your move, ${me}` : ` — you play ${me}`;
  } else {
    status += " — watching";
  }
  $("status").textContent = status;
  $("status").classList.toggle("your-turn", mine);
  showBoard($("board"), v);
  applyMemoryMode(v);
  mark($("board"), lastMoveSquares(v.log), "last");
  if (selected) {
    mark($("board"), [selected], "sel");
    mark($("board"), destinations(selected).map((d) => d.to), "dest");
  }
  showFacts($("facts"), v.observation);
  showLog($("log"), v.log, v.seats);
  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of v.seats) {
    const item = el("li", { "data-seat": seat.seat }, seat.label);
    if (seat.seat === v.current_player) item.classList.add("to-move");
    if (seat.seat === v.seat) item.classList.add("me");
    seats.appendChild(item);
  }
  $("seed-hash").textContent = v.seed_hash;
  $("seed").textContent = v.seed ? `Seed: ${v.seed}` : "";
  $("replay-link").hidden = !v.terminal;
  $("hint").hidden = !mine;
  renderActions(v, mine);
}

function button(action, cls = "action") {
  const b = el("button", { type: "button", class: cls, "data-action": action.id }, action.string);
  b.addEventListener("click", () => send(action.id));
  return b;
}

function renderActions(v, mine) {
  const actions = $("actions");
  const all = $("all-actions");
  actions.replaceChildren();
  all.replaceChildren();
  $("all-moves").hidden = !mine || v.legal.length === 0;
  if (!mine) return;
  for (const action of v.legal) {
    if (squaresOf(action.string).length === 0) actions.appendChild(button(action));
    all.appendChild(button(action, "action small"));
  }
}

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

/** Legal actions that name ``square`` alone: "put e3", "flip b2", "peek c3". */
function singlesAt(square) {
  return (view()?.legal ?? []).filter((a) => {
    const s = squaresOf(a.string);
    return s.length === 1 && s[0] === square;
  });
}

function showChoices(actions) {
  const box = $("choices");
  box.replaceChildren();
  for (const action of actions) box.appendChild(button(action, "action choice"));
}

function send(action) {
  const v = view();
  if (!v) return;
  const message = { type: "act", seq: v.seq, request: ++requestNumber };
  if (typeof action === "number") message.action = action;
  else message.action_string = action;
  $("choices").replaceChildren();
  sockets.get(shown)?.send(JSON.stringify(message));
}

function clickSquare(square) {
  const v = view();
  if (!v) return;
  if (v.seat === null) {
    $("message").textContent = "You are watching: open an invite link to play.";
    return;
  }
  if (!myTurn(v)) {
    $("message").textContent = v.terminal ? "The game is over." : `It is not your move: ${v.status}.`;
    return;
  }
  $("message").textContent = "";
  if (selected && square !== selected) {
    const moves = destinations(selected).filter((d) => d.to === square).map((d) => d.action);
    if (moves.length === 1) return send(moves[0].id);
    if (moves.length > 1) return showChoices(moves);
    if (destinations(square).length === 0 && singlesAt(square).length === 0) {
      // Not a legal destination: let the server say which rule it breaks.
      const { action, to } = destinations(selected)[0];
      return send(action.string.replace(new RegExp(`(?<![a-z0-9])${to}(?![0-9])`), square));
    }
  }
  if (selected === square) {
    selected = null;
    $("choices").replaceChildren();
    return render();
  }
  const singles = singlesAt(square);
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
  $("message").textContent = `No legal move with ${square}.`;
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
});

// Memory mode (Bond O Cones): hide the values of one's own pieces except the peeked ones.
// Offered when the observation lists cones (as {seat, peeked} objects or as tokens like
// "b8+p": colour, value or ?, rings, p when peeked, s when spied); purely a display choice.
const CONE_TOKEN = /^([bw])([0-9]+|\?)([+#]?)(p?)(s?)$/;

function memoryPieces(v) {
  const cones = v?.observation?.cones;
  if (!cones || typeof cones !== "object" || v.seat === null) return null;
  const pieces = {};
  for (const [square, cone] of Object.entries(cones)) {
    if (typeof cone === "string") {
      const m = CONE_TOKEN.exec(cone);
      if (!m) return null;
      pieces[square] = { seat: m[1] === "b" ? 0 : 1, peeked: m[4] === "p" };
    } else if (cone && typeof cone === "object" && "peeked" in cone && "seat" in cone) {
      pieces[square] = cone;
    } else {
      return null;
    }
  }
  return Object.keys(pieces).length ? pieces : null;
}

function applyMemoryMode(v) {
  const pieces = memoryPieces(v);
  $("memory-mode").hidden = !pieces;
  if (!pieces || !$("memory").checked) return;
  for (const node of $("board").querySelectorAll("[data-cone]")) {
    const piece = pieces[node.getAttribute("data-cone")];
    if (!piece || piece.seat !== v.seat || piece.peeked) continue;
    node.setAttribute("data-value", "");
    for (const text of node.querySelectorAll("text")) text.textContent = "?";
    for (const title of node.querySelectorAll("title")) title.textContent = "your cone (hidden: memory mode)";
  }
  const pre = $("board").querySelector("pre");
  if (pre) pre.textContent = "(text view hidden in memory mode)";
}

$("memory").addEventListener("change", () => render());

$("hint").addEventListener("click", () => {
  $("hint-text").textContent = "Thinking…";
  sockets.get(shown)?.send(JSON.stringify({ type: "hint", request: ++requestNumber }));
});

for (const token of tokens) connect(token);
