"""Choosing a game: one form base for the lobby and the assignment form.

The game and its mode are one select ("kind:mode", grouped by game); each option a game
declares gets its own field (``opt__<kind>__<key>``), which the page shows only for the chosen
game and mode (``static/games/js/game-form.js``); the server ignores the others.  A game
that takes maps and has published ones also gets a map field (``opt__<kind>__map``, every
mode): the map's id is kept in ``cleaned_data["options"]["map"]`` and ``engine_options()``
copies the map's data in (``games.maps.map_options``).
"""

from django import forms

from games.catalog import mode_choices, mode_key, mode_split, option_value
from games.engine import IllegalMove, get_rules, kinds
from games.maps import MapUnavailable, map_options
from games.maps_selectors import map_choices, map_kinds
from games.models import Seat


def option_field_name(kind, key):
    return f"opt__{kind}__{key}"


def map_field_name(kind):
    """The map choice of a game that takes maps: shown like its options, for every mode."""
    return option_field_name(kind, "map")


class GameChoiceForm(forms.Form):
    """``game`` (a mode of a registered game) and every game's option fields.  After
    ``is_valid()``, ``cleaned_data["kind"]``, ``["mode"]`` and ``["options"]`` (the chosen
    options that apply to that mode) are set, and the engine has accepted them."""

    solo_modes = True  # may a solo mode be chosen here

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = mode_choices(solo=self.solo_modes)
        first = choices[0][1][0][0] if choices else ""
        self.fields = {
            "game": forms.ChoiceField(choices=choices, initial=first, label="Game",
                                      widget=forms.Select(attrs={"data-game-select": ""})),
            **self.fields,
        }
        for kind in kinds():
            for option in get_rules(kind).options:
                self.fields[option_field_name(kind, option.key)] = forms.ChoiceField(
                    choices=[(str(v), label) for v, label in option.choices],
                    initial=str(option.default), required=False, label=option.label,
                    help_text=option.help,
                    widget=forms.Select(attrs={
                        "data-game-option": kind,
                        "data-modes": ",".join(option.modes),
                    }),
                )
        for kind in map_kinds():  # the published maps of each game (games.maps)
            choices = map_choices(kind)
            if choices:
                self.fields[map_field_name(kind)] = forms.ChoiceField(
                    choices=[("", "The game's own board")]
                    + [(str(pk), name) for pk, name in choices],
                    required=False, label="Map",
                    help_text="A state map instead of the game's own board.",
                    widget=forms.Select(attrs={"data-game-option": kind, "data-modes": ""}),
                )

    def option_fields(self):
        """The bound option fields (templates render them after the game select)."""
        return [self[name] for name in self.fields if name.startswith("opt__")]

    def other_fields(self):
        return [self[name] for name in self.fields
                if name != "game" and not name.startswith("opt__")]

    def clean(self):
        data = super().clean()
        picked = mode_split(data.get("game"))
        if picked is None:
            if "game" not in self.errors:
                self.add_error("game", "Choose one of the games.")
            return data
        kind, mode = picked
        rules = get_rules(kind)
        options = {}
        for option in rules.options:
            if option.applies_to(mode):
                raw = data.get(option_field_name(kind, option.key))
                value = option.default if raw in (None, "") else option_value(option, raw)
                if value is None:
                    self.add_error(option_field_name(kind, option.key),
                                   f"Choose one of the choices for {option.label.lower()}.")
                    return data
                options[option.key] = value
        try:
            rules.seat_count(rules.mode_options(mode, options))
        except IllegalMove as exc:
            self.add_error("game", exc.message)
            return data
        if data.get(map_field_name(kind)):  # kept as the map's id (an assignment's options)
            options["map"] = int(data[map_field_name(kind)])
            options["map_name"] = dict(self.fields[map_field_name(kind)].choices).get(
                data[map_field_name(kind)], "")
            try:
                rules.seat_count(self._engine_options(kind, mode, options))
            except (IllegalMove, MapUnavailable) as exc:
                self.add_error(map_field_name(kind), exc.message)
                return data
        data.update(kind=kind, mode=mode, options=options,
                    solo=rules.mode(mode).solo, players_max=rules.players_max)
        return data

    @staticmethod
    def _engine_options(kind, mode, options):
        """The engine options, with the chosen map's data copied in (``games.maps``)."""
        return map_options(kind=kind, options=get_rules(kind).mode_options(mode, options),
                           map_id=options.get("map"))

    def engine_options(self):
        data = self.cleaned_data
        return self._engine_options(data["kind"], data["mode"], data["options"])


class GameCreateForm(GameChoiceForm):
    """The lobby: a game to play now, with bots or classmates."""

    bots = forms.ChoiceField(
        choices=[("", "No: wait for classmates")] + list(Seat.BotLevel.choices),
        required=False,
        label="Fill the other seats with bots",
    )
    watch = forms.BooleanField(
        required=False, label="Just watch: bots take every seat (pick their level above)"
    )

    def clean(self):
        data = super().clean()
        if data.get("watch") and "kind" in data:
            if data["solo"]:
                self.add_error("watch", "Bots play the multiplayer games, not the solo ones.")
            elif not data.get("bots"):
                self.add_error("bots", "Pick the bots' level to watch them play.")
        return data


__all__ = ["GameChoiceForm", "GameCreateForm", "map_field_name", "mode_key", "option_field_name"]
