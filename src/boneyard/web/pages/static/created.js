// The invite and spectator links as whole addresses, ready to copy (a separate file: the pages allow
// no inline script). The server writes paths because only the browser knows the address it came by
// (a reverse proxy may change the scheme and host).
for (const input of document.querySelectorAll("input.link")) input.value = new URL(input.value, location.href).href;
for (const link of document.querySelectorAll("a.spectate")) link.textContent = link.href;

/** Put ``input``'s link on the clipboard; the button says whether it worked. */
async function copy(input, button) {
  let copied = false;
  try {
    await navigator.clipboard.writeText(input.value);
    copied = true;
  } catch {
    // No clipboard API (a page on plain http away from this machine): the older command.
    input.select();
    copied = document.execCommand("copy");
  }
  button.textContent = copied ? "Copied" : "Select and copy it";
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
}

for (const button of document.querySelectorAll("button.copy")) {
  const input = button.parentElement.querySelector("input.link");
  button.addEventListener("click", () => copy(input, button));
  input.addEventListener("focus", () => input.select());
}
