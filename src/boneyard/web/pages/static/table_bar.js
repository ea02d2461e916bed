// On a phone the table's bar (the facts, the choices and the actions) sticks to the bottom of
// the screen, over the page: its height, kept in --table-bar-height, keeps the board short
// enough to be seen whole above it, and the browser's own scrolling to the board (a square
// reached by the keyboard, a move shown) stops above it (style.css).
const bar = document.getElementById("table-bar");
if (bar) {
  new ResizeObserver(() => {
    document.documentElement.style.setProperty("--table-bar-height", `${bar.offsetHeight}px`);
  }).observe(bar);
}
