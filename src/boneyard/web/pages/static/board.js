// Shared helpers: squares in action strings, SVG highlights, safe text.

const SQUARE = /(?<![a-z0-9])([a-z]\d{1,2})(?![0-9])/g;

/** The board squares an action string names, in order: "d1-d2" -> ["d1", "d2"]. */
export function squaresOf(text) {
  return [...text.matchAll(SQUARE)].map((m) => m[1]);
}

export function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

/** Show the board: the game's SVG when it draws one, else its text drawing. */
export function showBoard(container, view) {
  container.replaceChildren();
  const svg = view.svg ? svgNode(view.svg) : null;
  if (svg) {
    // A picture without squares (Bon-Bon's table of cards) reads well near its own size: not
    // blown up to the board's width (a board is, to make its squares easy to hit).
    const natural = Number(svg.getAttribute("width"));
    if (natural && !svg.querySelector("[data-square]")) svg.style.maxWidth = `${1.3 * natural}px`;
    const [, , wide, high] = (svg.getAttribute("viewBox") ?? "").split(/[\s,]+/).map(Number);
    if (wide > 0 && high > 0) svg.style.setProperty("--ratio", String(wide / high));
    container.appendChild(svg);
  }
  const pre = el("pre", { class: view.svg ? "board-text hidden-text" : "board-text" }, view.text);
  container.appendChild(pre);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** A square's box in the drawing's own (root) coordinates, wherever in the drawing it sits. */
function boxInRoot(svg, target) {
  const box = target.getBBox();
  const toScreen = target.getScreenCTM();
  const rootToScreen = svg.getScreenCTM();
  if (!toScreen || !rootToScreen) return box; // not laid out (hidden): the square's own box
  const matrix = rootToScreen.inverse().multiply(toScreen);
  const corners = [[box.x, box.y], [box.x + box.width, box.y], [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height]].map(([x, y]) => new DOMPoint(x, y).matrixTransform(matrix));
  const xs = corners.map((p) => p.x);
  const ys = corners.map((p) => p.y);
  return { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs),
    height: Math.max(...ys) - Math.min(...ys) };
}

/** The layer the marks lie in: the drawing's last child, above every piece, never taking a
 * click (so a highlight never repaints a piece: it is an outline or a dot over it). */
function markLayer(svg) {
  let layer = svg.querySelector(":scope > g.marks");
  if (!layer) {
    layer = document.createElementNS(SVG_NS, "g");
    layer.setAttribute("class", "marks");
    layer.setAttribute("pointer-events", "none");
    svg.appendChild(layer);
  }
  return layer;
}

/** Mark squares with a mark of class ``kind``, each its own shape: ``last`` (the last move) an
 * amber outline, ``sel`` (the picked square) a thick blue outline, ``dest`` (where
 * it may go) a green dot, ``hint`` a dashed violet outline, ``focus`` (the keyboard's ring) an
 * orange ring outside the square. */
export function mark(container, squares, kind) {
  const svg = container.querySelector("svg");
  if (!svg) return;
  const layer = markLayer(svg);
  // One piece on every square marked (a Bones domino just laid): one outline round the piece,
  // not a box for each half.
  const whole = kind === "last" && squares.length > 1 ? pieceOver(svg, squares) : null;
  for (const square of whole ? [squares[0]] : squares) {
    const target = whole ?? svg.querySelector(`[data-square="${CSS.escape(square)}"]`);
    if (!target || typeof target.getBBox !== "function") continue;
    const box = boxInRoot(svg, target);
    const side = Math.min(box.width, box.height);
    let shape;
    let onPiece = false;
    if (kind === "dest" && occupied(svg, square)) {
      // A piece stands there (a cone to peek at, one to capture): a ring round the square,
      // so that the mark never hides the piece's value.
      onPiece = true;
      const inset = side * 0.04;
      shape = { x: box.x + inset, y: box.y + inset, width: box.width - 2 * inset,
        height: box.height - 2 * inset, rx: side * 0.3 };
    } else if (kind === "dest") {
      const dot = side * 0.32;
      shape = { x: box.x + (box.width - dot) / 2, y: box.y + (box.height - dot) / 2,
        width: dot, height: dot, rx: dot / 2 };
    } else {
      const inset = kind === "focus" ? -1 : kind === "sel" ? side * 0.06 : side * 0.1;
      shape = { x: box.x + inset, y: box.y + inset, width: box.width - 2 * inset,
        height: box.height - 2 * inset, rx: side * 0.12 };
    }
    const overlay = document.createElementNS(SVG_NS, "rect");
    for (const [key, value] of Object.entries({
      ...shape, class: `mark mark-${kind}${onPiece ? " on-piece" : ""}`, "data-mark": square,
      "vector-effect": "non-scaling-stroke",
    })) overlay.setAttribute(key, value);
    layer.appendChild(overlay);
  }
}

/** The top piece drawn over all of ``squares`` (its ``data-squares`` names them all), or null. */
function pieceOver(svg, squares) {
  const pieces = [...svg.querySelectorAll("[data-squares]")].filter((node) => {
    const on = node.getAttribute("data-squares").split(/[\s,]+/);
    return squares.every((square) => on.includes(square));
  });
  return pieces.at(-1) ?? null;
}

/** Whether a piece stands on ``square``: drawn with the square's name besides the square's own
 * shape (Obonto's animals, OYNO's bones), as a cone of that square (Bond O Cones), or as a
 * piece over the squares it names (a Bones domino, its stack's height written on it). */
function occupied(svg, square) {
  const name = CSS.escape(square);
  return Boolean(svg.querySelector(`[data-cone="${name}"]`))
    || svg.querySelectorAll(`[data-square="${name}"]`).length > 1
    || pieceOver(svg, [square]) !== null;
}

export function clearMarks(container, kind) {
  for (const node of container.querySelectorAll(`rect.mark-${kind}`)) node.remove();
}

/** Join a view's log lines to the lines the page has. A view carries the lines from its
 * ``log_from`` on (the latest 100, or a live update's new ones); ``before``, the view the page
 * had, may hold earlier ones. False where the two leave a gap (lines were missed). */
export function joinLog(before, message) {
  const from = before?.log_from ?? 0;
  if (!before || message.log_from < from || message.log_from > from + before.log.length) {
    return false;
  }
  message.log = before.log.slice(0, message.log_from - from).concat(message.log);
  message.log_from = from;
  return true;
}

/** Show the move log; ``earlier`` (where the log shown starts after the first move) asks for
 * the lines before it, a page at a time. */
export function showLog(list, log, players, earlier = null) {
  list.replaceChildren();
  if (earlier) {
    const button = el("button", { type: "button", class: "earlier" }, "Earlier moves");
    button.addEventListener("click", earlier);
    const item = el("li", { class: "earlier" });
    item.append(button);
    list.appendChild(item);
  }
  for (const entry of log) {
    // The short name: a person's own name, else the side ("North"), without the level.
    const player = players[entry.player];
    // (A replay frame's seats carry only a label.)
    const person = player?.computer === false;
    const short = (person ? player.name : (player?.side ?? player?.label)) ?? "";
    // A side starts the line with a capital ("North"); a person's name stays as written.
    const who = entry.player < 0 ? "Chance" : person ? short : short.charAt(0).toUpperCase() + short.slice(1);
    const item = el("li", { "data-seq": entry.seq, class: entry.player < 0 ? "chance" : "" });
    if (entry.words != null) {
      // The game's own words for the move, as this seat saw it; nothing worth saying: no line.
      if (!entry.words) continue;
      item.append(el("span", { class: "move" }, entry.words));
      // The notation beside the words, for players who read it (a chance outcome has none, and
      // a move seen only in part, written with a "?", has nothing to add to its words).
      if (entry.player >= 0 && !entry.string.includes("?")) {
        item.append(" ", el("span", { class: "notation" }, entry.string));
      }
    } else {
      item.append(el("span", { class: "who" }, who + ": "), el("span", { class: "move" }, entry.string));
    }
    list.appendChild(item);
  }
  list.scrollTop = list.scrollHeight;
}

/** The last move's squares, for marking (chance outcomes have none). */
export function lastMoveSquares(log) {
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].player >= 0) return squaresOf(log[i].string);
  }
  return [];
}

/** A drawing the server sent (a board, a die face), without scripts, as a DOM node. */
export function svgNode(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName.toLowerCase() !== "svg") return null;
  for (const script of svg.querySelectorAll("script, foreignObject")) script.remove();
  return document.importNode(svg, true);
}

/** The game's panel: labelled facts (scores, the die, cards left), a picture where given. */
export function showPanel(list, items) {
  list.replaceChildren();
  for (const item of items ?? []) {
    const value = el("dd", {}, item.value);
    const picture = item.picture ? svgNode(item.picture) : null;
    if (picture) {
      picture.setAttribute("role", "img");
      picture.setAttribute("aria-label", item.value);
      picture.classList.add("panel-picture");
      value.prepend(picture);
    }
    list.append(el("dt", {}, item.label), value);
  }
  list.hidden = !(items ?? []).length;
}

/** Give every square an accessible name: "e5", then what the drawing says is on it. */
export function nameSquares(container) {
  const svg = container.querySelector("svg");
  if (!svg) return [];
  svg.setAttribute("role", "presentation");
  const squares = new Map();
  for (const node of svg.querySelectorAll("[data-square]")) {
    const name = node.getAttribute("data-square");
    if (!squares.has(name)) squares.set(name, { node, words: [] });
    const title = node.querySelector("title")?.textContent?.trim();
    if (title) squares.get(name).words.push(title);
  }
  for (const node of svg.querySelectorAll("[data-cone]")) {
    const title = node.querySelector("title")?.textContent?.trim();
    const square = squares.get(node.getAttribute("data-cone"));
    if (title && square) square.words.push(title);
  }
  for (const [name, { node, words }] of squares) {
    node.setAttribute("id", `square-${name}`);
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", [name, ...new Set(words)].join(", "));
  }
  return [...squares.keys()];
}

/** On a small screen a drawing is scaled down: raise any of its text that would show under
 * ``least`` pixels to that size (a phone must stay readable; the drawing keeps its layout). */
export function keepTextReadable(container, least = 12) {
  const svg = container.querySelector("svg");
  const scale = svg?.getScreenCTM()?.a;
  if (!scale) return;
  for (const text of svg.querySelectorAll("text")) {
    const size = parseFloat(getComputedStyle(text).fontSize);
    if (size * scale < least) text.style.fontSize = `${(least + 0.2) / scale}px`;
  }
}
