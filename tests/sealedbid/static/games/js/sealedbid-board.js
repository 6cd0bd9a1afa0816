// Board module of the test-only sealed-bid game: coins, points, a bid box, the last reveal.
import { h } from "./ui.js";

export function createBoard(container, page) {
  const amount = h("input", { type: "number", id: "bid-amount", min: "0", value: "1", "aria-label": "Your bid" });
  const button = h("button", { type: "button", id: "bid-button", class: "button button-primary" }, "Bid");
  const table = h("table", { id: "sealed-table" });
  const reveal = h("p", { id: "sealed-reveal" });
  container.append(h("div", { class: "sealed-board" }, table, reveal, h("p", {}, amount, " ", button)));
  button.addEventListener("click", () => page.send({ type: "bid", amount: Number(amount.value) }));
  return {
    render(game, status) {
      const v = game.view;
      const committed = new Set(v.committed || []);
      table.replaceChildren(h("tr", {}, h("th", {}, "Player"), h("th", {}, "Coins"), h("th", {}, "Points"), h("th", {}, "This round")),
        ...(game.seats || []).map((s) => h("tr", { dataset: { seat: String(s.index) } },
          h("td", {}, s.name), h("td", {}, String(v.coins[s.index])), h("td", {}, String(v.points[s.index])),
          h("td", { class: "bid-state" }, committed.has(s.index) ? (s.index === status.mySeat ? `bid ${v.my_bid}` : "has bid") : ""))));
      reveal.textContent = v.revealed ? `Round ${v.revealed.round}: ${v.revealed.bids.join(", ")}` : "";
      button.disabled = !status.canAct;
    },
  };
}
