// When a game was played, in words of the reader's own clock, as lichess's lists say it:
// "today 14:05", "yesterday 09:12", "3 Dec", "3 Dec 2025". A page's <time data-when
// datetime="..."> is said so when the page opens; lists built by a script call playedWords.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function sameDay(a, b) {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** ``when``: a Date. */
export function playedWords(when, now = new Date()) {
  const clock = `${String(when.getHours()).padStart(2, "0")}:${String(when.getMinutes()).padStart(2, "0")}`;
  if (sameDay(when, now)) return `today ${clock}`;
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(when, yesterday)) return `yesterday ${clock}`;
  const day = `${when.getDate()} ${MONTHS[when.getMonth()]}`;
  return when.getFullYear() === now.getFullYear() ? day : `${day} ${when.getFullYear()}`;
}

/** A <time> element for ``seconds`` since 1970, said in words. */
export function playedTime(seconds) {
  const when = new Date(seconds * 1000);
  const time = document.createElement("time");
  time.dateTime = when.toISOString();
  time.dataset.when = "";
  time.textContent = playedWords(when);
  return time;
}

for (const time of document.querySelectorAll("time[data-when]")) {
  const when = new Date(time.dateTime);
  if (!Number.isNaN(when.getTime())) time.textContent = playedWords(when);
}
