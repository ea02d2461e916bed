// The replay page: step through a finished game, one position at a time.
import { showBoard, mark, showLog, lastMoveSquares } from "./board.js";

const root = document.getElementById("replay");
const gameId = root.dataset.gameId;
const steps = Number(root.dataset.steps);
const slider = document.getElementById("step");
let step = 0;

async function show(n) {
  step = Math.max(0, Math.min(steps, n));
  slider.value = step;
  const response = await fetch(`/api/games/${gameId}/replay/${step}`);
  const frame = await response.json();
  if (!response.ok) {
    document.getElementById("where").textContent = frame.detail;
    return;
  }
  showBoard(document.getElementById("board"), frame);
  mark(document.getElementById("board"), lastMoveSquares(frame.log), "last");
  showLog(document.getElementById("log"), frame.log, frame.seats);
  document.getElementById("where").textContent = `${frame.step} of ${frame.steps}`;
  document.getElementById("seed").textContent = frame.seed ?? "";
  document.getElementById("seed-hash").textContent = frame.seed_hash;
}

document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(step - 1);
document.getElementById("next").onclick = () => show(step + 1);
document.getElementById("last").onclick = () => show(steps);
slider.oninput = () => show(Number(slider.value));
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowLeft") show(step - 1);
  if (event.key === "ArrowRight") show(step + 1);
});
show(0);
