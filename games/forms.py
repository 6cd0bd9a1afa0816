from django import forms

from games.models import Seat

MODES = [
    ("2", "2 players"),
    ("3", "3 players"),
    ("4", "4 players"),
    ("solo-easy", "Solo: easy (win as many districts as you can)"),
    ("solo-competitive", "Solo: competitive districts (tie every district)"),
]


class GameCreateForm(forms.Form):
    mode = forms.ChoiceField(choices=MODES, initial="2", label="Game")
    bots = forms.ChoiceField(
        choices=[("", "No: wait for classmates")] + list(Seat.BotLevel.choices),
        required=False,
        label="Fill the other seats with bots",
    )
    watch = forms.BooleanField(
        required=False, label="Just watch: bots take every seat (pick their level above)"
    )
    party = forms.ChoiceField(
        choices=[("1", "Blue Donkeys"), ("0", "Red Elephants")], initial="1",
        required=False, label="Your party (solo)",
    )

    def clean(self):
        data = super().clean()
        if data.get("watch"):
            if str(data.get("mode", "")).startswith("solo"):
                self.add_error("watch", "Bots play the multiplayer games, not the solo ones.")
            elif not data.get("bots"):
                self.add_error("bots", "Pick the bots' level to watch them play.")
        return data

    def engine_options(self):
        mode = self.cleaned_data["mode"]
        if mode.startswith("solo"):
            return {"mode": mode, "party": int(self.cleaned_data.get("party") or 1)}
        return {"players": int(mode)}
