// The replay's web-layer actions (a resignation, a draw agreed, a takeback, a stand-in), in
// words, as the steps reach the move they were played on; the ending at the last step.
const root = document.getElementById("replay");
const slider = document.getElementById("step");
const list = document.getElementById("replay-events");
const steps = Number(root.dataset.steps);
let session = null;

function show() {
  if (!session || !slider) return;
  const step = Number(root.dataset.step ?? 0);
  const lines = session.events.filter((event) => event.at <= step).map((event) => event.words);
  if (session.ending && step === steps) lines.push(session.ending.words);
  list.replaceChildren(
    ...lines.map((words) => {
      const item = document.createElement("li");
      item.textContent = words;
      return item;
    }),
  );
}

fetch(`/api/games/${root.dataset.gameId}/session`)
  .then((response) => (response.ok ? response.json() : null))
  .then((found) => {
    session = found;
    show();
  });
// The replay page moves the slider for every way of stepping: follow it after each.
for (const type of ["input", "click", "keydown"]) {
  document.addEventListener(type, () => setTimeout(show, 0));
}
