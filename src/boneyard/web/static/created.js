// The invite links as whole addresses, ready to copy (a separate file: the pages allow no inline script).
for (const input of document.querySelectorAll("input.link")) input.value = new URL(input.value, location.href).href;
