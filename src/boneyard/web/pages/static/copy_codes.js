// The Copy button beside recovery codes shown once: the codes, one a line, to paste where they
// are kept. Shown only where the browser lets a page write to the clipboard.
const button = document.getElementById("copy-codes");
const status = document.getElementById("copy-status");
if (button && navigator.clipboard?.writeText) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const codes = [...document.querySelectorAll("#recovery-codes code")].map((code) => code.textContent);
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      status.textContent = "Copied: paste them somewhere safe.";
    } catch {
      status.textContent = "The browser did not allow copying: select the codes and copy them.";
    }
  });
}
