// The invite and spectator links as whole addresses, ready to copy (a separate file: the pages allow
// no inline script). The server writes paths because only the browser knows the address it came by
// (a reverse proxy may change the scheme and host).
for (const input of document.querySelectorAll("input.link")) input.value = new URL(input.value, location.href).href;
for (const link of document.querySelectorAll("a.spectate")) link.textContent = link.href;
