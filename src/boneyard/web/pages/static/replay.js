// The replay page: step through a finished game, one move at a time. The steps it stops at come
// from the server: a move a spectator was never shown (a hidden set-up) is stepped over.
import { showBoard, mark, showLog, lastMoveSquares, keepTextReadable } from "./board.js";

const root = document.getElementById("replay");
const gameId = root.dataset.gameId;
const stops = root.dataset.stops.split(",").map(Number);
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
  showLog(document.getElementById("log"), frame.log, frame.seats);
  document.getElementById("where").textContent = `${at} of ${stops.length - 1}`;
  document.getElementById("seed").textContent = frame.seed ?? "";
  document.getElementById("seed-hash").textContent = frame.seed_hash;
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
