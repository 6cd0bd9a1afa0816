// Drag students between tables (mouse/touch via HTML5 drag and drop; keyboard: Enter on a
// student picks it up, Enter on a table drops it).  Plain JS, no library.
(function () {
  const root = document.getElementById("arrange");
  let dragged = null;
  let picked = null;

  function tables() { return [...root.querySelectorAll("[data-table]")]; }
  function renumber() { tables().forEach((t, i) => { t.querySelector("h2").textContent = `Table ${i + 1}`; }); }
  function dropInto(table, chip) { table.querySelector("ul").append(chip); chip.classList.remove("picked"); }

  root.addEventListener("dragstart", (e) => {
    const chip = e.target.closest(".student-chip");
    if (!chip) return;
    dragged = chip;
    e.dataTransfer.setData("text/plain", chip.dataset.studentId);
    e.dataTransfer.effectAllowed = "move";
  });
  root.addEventListener("dragover", (e) => { if (e.target.closest("[data-table]")) e.preventDefault(); });
  root.addEventListener("drop", (e) => {
    const table = e.target.closest("[data-table]");
    if (!table || !dragged) return;
    e.preventDefault();
    dropInto(table, dragged);
    dragged = null;
  });
  root.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    const chip = e.target.closest(".student-chip");
    if (chip && !picked) { picked = chip; chip.classList.add("picked"); e.preventDefault(); return; }
    const table = e.target.closest("[data-table]");
    if (table && picked) { dropInto(table, picked); picked.focus(); picked = null; e.preventDefault(); }
  });
  document.getElementById("add-table").addEventListener("click", () => {
    const t = document.createElement("div");
    t.className = "table-drop card";
    t.tabIndex = 0;
    t.dataset.table = "";
    t.innerHTML = "<h2></h2><ul></ul>";
    root.append(t);
    renumber();
  });
  document.getElementById("arrange-form").addEventListener("submit", () => {
    const data = tables().map((t) => [...t.querySelectorAll(".student-chip")].map((c) => Number(c.dataset.studentId)))
      .filter((t) => t.length);
    document.getElementById("tables-json").value = JSON.stringify(data);
  });
})();
