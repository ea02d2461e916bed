// The game's clocks: each seat's time, counted down here from the server's figures and set
// again from every view the server sends (the server keeps the clock; this only shows it).
// Low time turns the running clock red and, for this page's own seat, sounds once.
import { play } from "./sound.js";

const root = document.getElementById("game");
const box = document.getElementById("clocks");
const gameId = root.dataset.gameId;
const tokens = root.dataset.tokens ? root.dataset.tokens.split(",") : [];
const LOW_SECONDS = 10; // real time: below this, or a tenth of the initial time, it is low
const DAY = 86400;

let latest = null; // { clock, seats, seat, terminal, at: performance.now() when received }
let warned = false; // the low-time sound played for the current run of this seat's clock
let ticker = null;

const style = document.createElement("link");
style.rel = "stylesheet";
style.href = "/static/clocks.css";
document.head.appendChild(style);

/** A seat's label with the page's own mark, said once: "alice (White, you)", not
 * "alice (White) (you)"; "White (you)" where the label has no brackets. */
function markedOnce(label, mark) {
  if (mark === " (you)" && label.endsWith(")")) return `${label.slice(0, -1)}, you)`;
  return label + mark;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams({ draw: "false" });
  if (tokens[0]) query.set("token", tokens[0]);
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}?${query}`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "view") return;
    latest = {
      clock: message.clock,
      seats: message.seats,
      seat: message.seat,
      youMark: message.you_mark ?? "",
      terminal: message.terminal,
      at: performance.now(),
    };
    show();
  });
  socket.addEventListener("close", (event) => {
    if (event.code < 4000) setTimeout(connect, 1500);
  });
}

/** ``seconds`` as a clock shows it: 4:05, 0:09.4 under ten seconds, 2 d 3 h for days. */
function format(seconds) {
  const s = Math.max(0, seconds);
  if (s >= DAY) return `${Math.floor(s / DAY)} d ${Math.floor((s % DAY) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  const minutes = Math.floor(s / 60);
  const rest = s - minutes * 60;
  const whole = s < 10 ? rest.toFixed(1).padStart(4, "0") : String(Math.floor(rest)).padStart(2, "0");
  return `${minutes}:${whole}`;
}

function low(clock, left) {
  if (clock.control.days !== undefined) return left < 3600; // correspondence: under an hour
  return left < Math.max(LOW_SECONDS, clock.control.initial / 10);
}

function show() {
  const clock = latest?.clock;
  box.hidden = !clock;
  if (!clock) return;
  const elapsed = (performance.now() - latest.at) / 1000;
  const rows = [];
  clock.remaining.forEach((seconds, seat) => {
    const running = !latest.terminal && clock.running === seat;
    const left = running && clock.ticking ? seconds - elapsed : seconds;
    const item = document.createElement("div");
    item.className = "clock";
    item.setAttribute("role", "timer");
    const name = latest.seats[seat]?.label ?? `Player ${seat + 1}`;
    item.setAttribute("aria-label", `${name}'s clock`);
    item.dataset.clockSeat = String(seat);
    item.dataset.running = running ? "yes" : "no";
    const isLow = running && clock.ticking && low(clock, left);
    item.dataset.low = isLow ? "yes" : "no";
    const label = document.createElement("span");
    label.className = "clock-name";
    label.textContent = seat === latest.seat ? markedOnce(name, latest.youMark) : name;
    const time = document.createElement("span");
    time.className = "clock-time";
    time.textContent = format(left);
    item.append(label, time);
    rows.push(item);
    if (seat === latest.seat && running) {
      if (isLow && !warned) play("low");
      warned = isLow;
    }
  });
  const note = document.createElement("p");
  note.className = "clock-note";
  const first = clock.first_move_left;
  note.textContent =
    first !== null && !latest.terminal
      ? `${clock.words}: the first move is not timed, but is due within ${format(Math.max(0, first - elapsed))}`
      : clock.words;
  rows.push(note);
  box.replaceChildren(...rows);
  const moving = !latest.terminal && clock.running !== null;
  if (moving && !ticker) ticker = setInterval(show, 200);
  if (!moving && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
}

connect();
