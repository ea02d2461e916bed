// The replay page: step through a finished game, one move at a time. The steps it stops at come
// from the server: a move a spectator was never shown (a hidden set-up) is stepped over.
import { showBoard, mark, showLog, lastMoveSquares, keepTextReadable } from "./board.js";

const root = document.getElementById("replay");
const gameId = root.dataset.gameId;
// "0-40,42-90": runs of steps (the page's size must not grow with the game's length)
const stops = root.dataset.stops.split(",").flatMap((run) => {
  const [first, last = first] = run.split("-").map(Number);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
});
const slider = document.getElementById("step");
let at = 0; // the index of the stop on screen

async function show(n) {
  at = Math.max(0, Math.min(stops.length - 1, n));
  const asked = at;
  slider.value = at;
  root.dataset.step = stops[at]; // the actions played so far (replay_session.js reads it)
  const response = await fetch(`/api/games/${gameId}/replay/${stops[at]}`);
  const frame = await response.json();
  if (asked !== at) return; // stepped on meanwhile: that answer is the one to show
  if (!response.ok) {
    document.getElementById("where").textContent = frame.detail;
    return;
  }
  showBoard(document.getElementById("board"), frame);
  keepTextReadable(document.getElementById("board")); // a phone's board, as on the game page
  mark(document.getElementById("board"), lastMoveSquares(frame.log), "last");
  showFrameLog(frame);
  document.getElementById("where").textContent = `${at} of ${stops.length - 1}`;
  document.getElementById("seed").textContent = frame.seed ?? "";
  document.getElementById("seed-hash").textContent = frame.seed_hash;
}

/** The frame's log: its latest lines, and the earlier ones a page at a time when asked. */
function showFrameLog(frame) {
  const earlier = async () => {
    const response = await fetch(`/api/games/${gameId}/log?before=${frame.log_from}`);
    if (!response.ok || root.dataset.step !== String(frame.step)) return;
    const page = await response.json();
    frame.log = page.log.concat(frame.log);
    frame.log_from = page.log_from;
    showFrameLog(frame);
  };
  showLog(document.getElementById("log"), frame.log, frame.seats, frame.log_from > 0 ? earlier : null);
}

document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(at - 1);
document.getElementById("next").onclick = () => show(at + 1);
document.getElementById("last").onclick = () => show(stops.length - 1);
slider.oninput = () => show(Number(slider.value));
window.addEventListener("resize", () => keepTextReadable(document.getElementById("board")));
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowLeft") show(at - 1);
  if (event.key === "ArrowRight") show(at + 1);
});
show(0);
