// Motion on the board: after a new position is drawn, the moved piece slides from its old square,
// a turned tile flips, a new piece or card is set down or dealt, a die rolls. The Web Animations
// API on the fresh drawing (element.animate), 150-300 ms, and nothing at all when the person
// asked their system for less motion.

const DURATION_MS = 260;
const EASE = "cubic-bezier(.2,.7,.3,1)";

const lessMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)");

export function motionWanted() {
  return !lessMotion?.matches;
}

/** The elements of a drawing that are pieces (not squares, marks or the board itself). */
const PIECES = "g.animal, g.bone, g.cone, rect.piece, [data-card]";

function centre(svg, square) {
  const node = svg.querySelector(`[data-square="${CSS.escape(square)}"]`);
  if (!node || typeof node.getBBox !== "function") return null;
  const box = node.getBBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The pieces standing on ``square`` in ``svg``. */
function piecesOn(svg, square) {
  return [...svg.querySelectorAll(PIECES)].filter((node) => {
    const on = node.getAttribute("data-square") ?? node.getAttribute("data-cone");
    if (on === square) return true;
    return (node.getAttribute("data-squares") ?? "").split(/[\s,]+/).includes(square);
  });
}

function animate(node, keyframes, duration = DURATION_MS) {
  node.animate(keyframes, { duration, easing: EASE });
}

/** The moved piece slides from ``from`` to ``to`` (its own translate, so a transform the
 * drawing or the page gave it, such as a turned board's, stays). */
function slide(svg, from, to) {
  const a = centre(svg, from);
  const b = centre(svg, to);
  if (!a || !b) return false;
  const moving = piecesOn(svg, to);
  for (const node of moving) {
    animate(node, [{ translate: `${a.x - b.x}px ${a.y - b.y}px` }, { translate: "0px 0px" }]);
  }
  return moving.length > 0;
}

/** A piece that was not there before is set down: it drops in and fades in. (Moved, never
 * scaled: a piece's text keeps its size, readable on a phone, all through the motion.) */
function setDown(nodes) {
  for (const node of nodes) {
    animate(node, [{ translate: "0px -14px", opacity: 0 }, { translate: "0px 0px", opacity: 1 }], 220);
  }
}

/** A tile that changed sides turns over: it narrows to a line and opens again (a tile has no
 * text to shrink). */
function turnOver(nodes) {
  for (const node of nodes) {
    animate(node, [{ scale: "1 1" }, { scale: "0 1" }, { scale: "1 1" }], 300);
  }
}

/** A card or bone turned over: lifted, faded out and laid back, its text never scaled. */
function turnCard(nodes) {
  for (const node of nodes) {
    animate(node, [{ translate: "0px 0px", opacity: 1 }, { translate: "0px -10px", opacity: 0.2 },
      { translate: "0px 0px", opacity: 1 }], 300);
  }
}

/** Key each element of a kind by where it is, to find what is new or changed. */
function keyed(svg, selector, key) {
  const found = new Map();
  for (const node of svg?.querySelectorAll(selector) ?? []) found.set(key(node), node);
  return found;
}

const cardKey = (node) => `${node.getAttribute("data-seat")}:${node.getAttribute("data-card")}`;
const squareKey = (node) => node.getAttribute("data-square");

/** Every piece of ``svg`` by each square it stands on. */
function piecesBySquare(svg) {
  const found = new Map();
  for (const node of svg.querySelectorAll(PIECES)) {
    const own = node.getAttribute("data-square") ?? node.getAttribute("data-cone");
    const squares = own ? [own] : (node.getAttribute("data-squares") ?? "").split(/[\s,]+/);
    for (const square of squares.filter(Boolean)) {
      if (!found.has(square)) found.set(square, []);
      found.get(square).push(node);
    }
  }
  return found;
}

/** A piece taken off (a capture) fades out where it stood: a copy of it, from the drawing
 * before, laid over the new one for the motion's time. */
function takeOff(after, nodes) {
  for (const node of nodes) {
    const ghost = document.importNode(node, true);
    ghost.setAttribute("pointer-events", "none");
    ghost.classList?.add("taken");
    const layer = after.querySelector(":scope > g.marks");
    after.insertBefore(ghost, layer ?? null);
    const motion = ghost.animate(
      [{ translate: "0px 0px", opacity: 1 }, { translate: "0px -12px", opacity: 0 }],
      { duration: DURATION_MS, easing: EASE, fill: "forwards" },
    );
    motion.finished.catch(() => {}).finally(() => ghost.remove());
  }
}

/** The drawing's differences beyond the move's own squares: every other square whose pieces
 * changed moves too (OYNO's neighbours turning over, a Bones stack, a cone taken or revealed),
 * so that nothing on the board changes without being seen to. */
function animateOtherSquares(before, after, move, identity) {
  const was = piecesBySquare(before);
  const now = piecesBySquare(after);
  const moveSquares = new Set(move);
  const animated = new Set(); // a piece on two squares (a domino) moves once
  const gone = new Set();
  for (const square of new Set([...was.keys(), ...now.keys()])) {
    if (moveSquares.has(square)) continue;
    const old = was.get(square) ?? [];
    const fresh = now.get(square) ?? [];
    const oldIds = new Set(old.map(identity));
    const freshIds = new Set(fresh.map(identity));
    const changed = fresh.filter((node) => !oldIds.has(identity(node)) && !animated.has(node));
    changed.forEach((node) => animated.add(node));
    if (old.length > 0) turnCard(changed);
    else setDown(changed);
    if (fresh.length === 0) old.filter((node) => !freshIds.has(identity(node))).forEach((node) => gone.add(node));
  }
  takeOff(after, [...gone].filter((node) => !moveSquares.has(node.getAttribute("data-square"))));
}

/** Animate what changed between ``before`` (the last drawing, or null) and ``after``.
 *  ``move`` is the last move's squares. Returns how many animations started. */
export function animateChange(before, after, move) {
  if (!motionWanted() || !before || !after) return 0;
  const running = () => after.getAnimations?.({ subtree: true }).length ?? 0;
  // A piece moved: it left its first square. Otherwise (a bone placed, a domino laid, a cone
  // put) what is new on the move's squares is set down.
  const identity = (node) => node.getAttribute("data-piece") ?? node.outerHTML;
  const leftFrom = move.length >= 2 && piecesOn(before, move[0]).length > 0
    && piecesOn(after, move[0]).length < piecesOn(before, move[0]).length;
  if (leftFrom) {
    slide(after, move[0], move[move.length - 1]);
  } else {
    const was = new Set(move.flatMap((square) => piecesOn(before, square).map(identity)));
    const fresh = new Set(move.flatMap((square) => piecesOn(after, square))
      .filter((node) => !was.has(identity(node))));
    // On a square that held a piece of its own (not a Bones stack) the piece turned: an OYNO
    // bone stood up or lay down.
    const turnedHere = (node) => !node.matches("rect.piece")
      && piecesOn(before, node.getAttribute("data-square") ?? "").length > 0;
    turnCard([...fresh].filter(turnedHere));
    setDown([...fresh].filter((node) => !turnedHere(node)));
  }
  animateOtherSquares(before, after, move, identity);
  // Squares that turned over (Obonto's tiles, a square's class changed light <-> dark): the
  // tile drawn just before the square turns.
  const squaresBefore = keyed(before, "rect[data-square][class]", squareKey);
  const turned = [];
  for (const [name, node] of keyed(after, "rect[data-square][class]", squareKey)) {
    const old = squaresBefore.get(name);
    if (old && old.getAttribute("class") !== node.getAttribute("class")) {
      const tile = node.previousElementSibling;
      if (tile && tile.tagName.toLowerCase() === "use") turned.push(tile);
    }
  }
  // Cards turned face up or down, and cards dealt (Bon-Bon's runs).
  const cardsBefore = keyed(before, "[data-card]", cardKey);
  const dealt = [];
  const cardsTurned = [];
  for (const [key, node] of keyed(after, "[data-card]", cardKey)) {
    const old = cardsBefore.get(key);
    if (!old) dealt.push(node);
    else if (old.getAttribute("data-face") !== node.getAttribute("data-face")) cardsTurned.push(node);
  }
  turnOver(turned);
  turnCard(cardsTurned);
  for (const node of dealt) {
    animate(node, [{ translate: "0px -40px", opacity: 0 }, { translate: "0px 0px", opacity: 1 }]);
  }
  return running();
}

/** A die (or any picture in the game's panel) that changed rolls into place. */
export function rollPictures(panel, valuesBefore) {
  if (!motionWanted()) return;
  for (const picture of panel.querySelectorAll(".panel-picture")) {
    const label = picture.getAttribute("aria-label");
    if (valuesBefore.has(label)) continue;
    picture.animate(
      [{ rotate: "-200deg", scale: "0.6" }, { rotate: "0deg", scale: "1" }],
      { duration: 300, easing: EASE },
    );
  }
}

/** The panel pictures' labels now (before a redraw), to tell which changed. */
export function pictureLabels(panel) {
  return new Set([...panel.querySelectorAll(".panel-picture")].map((p) => p.getAttribute("aria-label")));
}

/** How many pieces a drawing shows (fewer after a move: one was taken). */
export function pieceCount(svg) {
  return [...svg.querySelectorAll(PIECES)].filter((node) => !node.classList.contains("taken")).length;
}
