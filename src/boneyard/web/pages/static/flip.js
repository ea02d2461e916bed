// The Flip board control: each seat already sees its own side at the bottom; this turns the
// board half round on request (and back), remembered for this game by the browser. The page
// turns the drawing and turns each piece and label back, so nothing reads upside down.

let turned = false;
let key = "";

function remembered() {
  try {
    return localStorage.getItem(key) === "yes";
  } catch {
    return turned;
  }
}

function remember(value) {
  turned = value;
  try {
    if (value) localStorage.setItem(key, "yes");
    else localStorage.removeItem(key);
  } catch {
    // storage switched off: the choice holds for this page only
  }
}

/** Whether the drawing is a board of two seats (squares to click and two players). */
export function flippable(board, view) {
  return Boolean(board.querySelector("svg [data-square]")) && (view.players ?? []).length === 2;
}

/** Turn the freshly drawn board as chosen. */
export function applyFlip(board) {
  board.querySelector("svg")?.classList.toggle("turned", turned);
}

/** Wire ``button`` for the game ``gameId``; ``redraw`` draws the board again. */
export function wireFlip(button, gameId, redraw) {
  key = `boneyard.flip.${gameId}`;
  turned = remembered();
  const show = () => button.setAttribute("aria-pressed", turned ? "true" : "false");
  button.addEventListener("click", () => {
    remember(!turned);
    show();
    redraw();
  });
  show();
}
