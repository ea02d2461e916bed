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
  if (view.svg) {
    const doc = new DOMParser().parseFromString(view.svg, "image/svg+xml");
    const svg = doc.documentElement;
    if (svg.nodeName.toLowerCase() === "svg") {
      for (const script of svg.querySelectorAll("script, foreignObject")) script.remove();
      container.appendChild(document.importNode(svg, true));
    }
  }
  const pre = el("pre", { class: view.svg ? "board-text hidden-text" : "board-text" }, view.text);
  container.appendChild(pre);
}

/** Mark squares with a translucent overlay of class ``kind`` (sel, dest, last, hint). */
export function mark(container, squares, kind) {
  const svg = container.querySelector("svg");
  if (!svg) return;
  for (const square of squares) {
    const target = svg.querySelector(`[data-square="${CSS.escape(square)}"]`);
    if (!target || typeof target.getBBox !== "function") continue;
    const box = target.getBBox();
    const overlay = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    for (const [key, value] of Object.entries({
      x: box.x, y: box.y, width: box.width, height: box.height,
      class: `mark mark-${kind}`, "data-mark": square,
    })) overlay.setAttribute(key, value);
    if (target.getAttribute("transform")) overlay.setAttribute("transform", target.getAttribute("transform"));
    target.parentNode.insertBefore(overlay, target.nextSibling);
  }
}

export function clearMarks(container, kind) {
  for (const node of container.querySelectorAll(`rect.mark-${kind}`)) node.remove();
}

export function showLog(list, log, seats) {
  list.replaceChildren();
  for (const entry of log) {
    const who = entry.player < 0 ? "chance" : (seats[entry.player]?.label ?? `seat ${entry.player}`);
    const item = el("li", { "data-seq": entry.seq, class: entry.player < 0 ? "chance" : "" });
    item.append(el("span", { class: "who" }, who + ": "), el("span", { class: "move" }, entry.string));
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

const SKIP = new Set(["seat", "current_player"]);

/** The observation's short facts (the die, scores, phase, ...): whatever is a plain value. */
export function showFacts(list, observation) {
  list.replaceChildren();
  for (const [key, value] of Object.entries(observation ?? {})) {
    if (SKIP.has(key) || value === null || value === "") continue;
    let shown;
    if (["string", "number", "boolean"].includes(typeof value)) shown = String(value);
    else if (Array.isArray(value) && value.length <= 8 && value.every((x) => x === null || typeof x !== "object"))
      shown = value.map((x) => (x === null ? "–" : String(x))).join(" ");
    else continue;
    list.append(el("dt", {}, key.replaceAll("_", " ")), el("dd", { "data-fact": key }, shown));
  }
}
