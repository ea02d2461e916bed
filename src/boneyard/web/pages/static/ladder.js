// The puzzle ladder page: the levels with this browser's results, and the daily puzzle.
import { loadAccountProgress, movesWord, startPuzzle, today } from "./ladder_progress.js";

const progress = await loadAccountProgress();
const message = document.getElementById("ladder-message");
// The next level is the one above the highest solved: a level solved from the home page opens
// the next even where the levels below it were never played.
const solved = Object.keys(progress.levels).map(Number);
const open = Math.max(0, ...solved) + 1;

for (const row of document.querySelectorAll("[data-level]")) {
  const level = Number(row.dataset.level);
  const result = progress.levels[level];
  const text = row.querySelector(".result");
  const play = row.querySelector("button");
  if (result) {
    text.textContent = `Solved in ${movesWord(result.used)} (shortest: ${result.shortest})`;
    row.dataset.state = "solved";
    play.textContent = "Play again";
  } else if (level === open) {
    text.textContent = "Your next level";
    row.dataset.state = "open";
  } else if (level < open) {
    text.textContent = "Not solved yet";
    row.dataset.state = "open";
  } else {
    text.textContent = `Solve level ${level - 1} first`;
    row.dataset.state = "locked";
    play.disabled = true;
  }
  // The buttons come disabled (ladder.html): a click before this script has read the results
  // would do nothing.
  play.disabled = row.dataset.state === "locked";
  play.addEventListener("click", () => {
    play.disabled = true;
    startPuzzle(`/api/ladder/levels/${level}`).catch((error) => {
      message.textContent = `The puzzle could not be dealt: ${error.message}`;
      play.disabled = false;
    });
  });
}

const date = today();
const daily = document.getElementById("daily");
fetch(`/api/ladder/daily/${date}`)
  .then((r) => r.json())
  .then((puzzle) => {
    const done = progress.daily[date];
    daily.querySelector(".about").textContent =
      `${puzzle.bones} bones; the shortest solution takes ${movesWord(puzzle.shortest)}.` +
      (done ? ` You solved it in ${movesWord(done.used)}.` : "");
    daily.dataset.shortest = puzzle.shortest;
  });
daily.querySelector(".date").textContent = new Date().toLocaleDateString(undefined, { dateStyle: "long" });
daily.querySelector("button").addEventListener("click", (event) => {
  event.target.disabled = true;
  startPuzzle("/api/ladder/daily", { date }).catch((error) => {
    message.textContent = `The puzzle could not be dealt: ${error.message}`;
    event.target.disabled = false;
  });
});
