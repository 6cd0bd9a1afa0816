// The debrief's "Hide names" button: players become "Player 1", "Player 2"... on the projector.
const root = document.getElementById("debrief");
const toggle = document.getElementById("names-toggle");
if (root && toggle) {
  toggle.addEventListener("click", () => {
    const hidden = root.classList.toggle("names-hidden");
    toggle.setAttribute("aria-pressed", hidden ? "true" : "false");
    toggle.textContent = hidden ? "Show names" : "Hide names";
  });
}
