from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User

from classrooms import ratelimit
from classrooms.models import Assignment
from classrooms.services import MAX_ROSTER, ClassroomError, clean_display_name, password_check
from games.engine import get_rules, kinds
from games.forms import GameChoiceForm
from games.models import Seat


class RateLimitedAuthenticationForm(AuthenticationForm):
    """Login limited per username + IP (a class shares one IP: per-IP alone would lock it out).

    Usernames are not case-sensitive here ("Ana482" signs in ana482: tablets capitalise the
    first letter), and a failed sign-in says what a student can do about it."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "That username and password do not match: check your card, or ask "
                         "your teacher.",
        "inactive": "This account is switched off. Ask your teacher.",
        "rate_limited": "Too many wrong passwords for this username. Wait 15 minutes or ask "
                        "your teacher to reset your password.",
    }
    rate_limited = False

    def clean_username(self):
        """The stored username whatever its case: an exact match first, else the one account
        whose username differs only in case (two such accounts: as typed)."""
        typed = (self.cleaned_data.get("username") or "").strip()
        users = User.objects.filter(username__iexact=typed).values_list("username", flat=True)
        stored = list(users[:2])
        if typed in stored or len(stored) != 1:
            return typed
        return stored[0]

    def clean(self):
        username = self.data.get("username", "")
        if ratelimit.login_blocked(self.request, username):
            self.rate_limited = True
            raise forms.ValidationError(self.error_messages["rate_limited"], code="rate_limited")
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            ratelimit.login_failed(self.request, username)
            raise
        ratelimit.login_succeeded(self.request, username)
        return cleaned


class TeacherSignupForm(UserCreationForm):
    first_name = forms.CharField(label="Your name", max_length=60)
    email = forms.EmailField(required=False, help_text="Optional.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "first_name", "email")

    def clean_first_name(self):
        try:
            return clean_display_name(self.cleaned_data["first_name"])
        except ClassroomError as exc:
            raise forms.ValidationError(exc.message) from None

    def clean(self):
        cleaned = super().clean()
        password = cleaned.get("password1")
        if password and not self.has_error("password1") and not self.has_error("password2"):
            try:
                password_check(password, name=cleaned.get("first_name", ""), teacher=True)
            except ClassroomError as exc:
                self.add_error("password1", exc.message)
        return cleaned


class ClassroomForm(forms.Form):
    name = forms.CharField(max_length=100, label="Class name")


class RosterForm(forms.Form):
    names = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 10, "placeholder": "Ana María López\nO'Neill, Ben"}),
        label="Student names, one per line",
        strip=False,  # a spreadsheet paste's tabs are its columns
        help_text=f"Type one name per line (\"First Last\" or \"Last, First\"), or paste the "
                  "first and last name columns from a spreadsheet, with or without their "
                  f"header row. Up to {MAX_ROSTER} names at a time. You see the list before "
                  "any account is made.",
    )


class RenameForm(forms.Form):
    name = forms.CharField(max_length=60)


class JoinForm(forms.Form):
    code = forms.CharField(max_length=16, label="Class code",
                           widget=forms.TextInput(attrs={"autocapitalize": "characters",
                                                         "autocomplete": "off"}))
    name = forms.CharField(max_length=60, required=False, label="Your name")
    password = forms.CharField(widget=forms.PasswordInput, required=False,
                               label="Choose a password (8 characters or more)")


class AssignmentForm(GameChoiceForm):
    title = forms.CharField(max_length=120)
    table_size = forms.IntegerField(
        min_value=1, max_value=max(get_rules(k).players_max for k in kinds()), initial=2,
        label="Students per table",
    )
    grouping = forms.ChoiceField(choices=Assignment.Grouping.choices, initial="random")
    bot_level = forms.ChoiceField(
        choices=[("", "No bots: every seat needs a student")] + list(Seat.BotLevel.choices),
        required=False, initial="easy", label="Fill empty seats with bots",
    )
    due_at = forms.DateTimeField(required=False, label="Due (optional)",
                                 widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                 help_text="Students see it on My games and on the game page.")
    close_at_due = forms.BooleanField(
        required=False, label="Close the games at the due time",
        help_text="At the due time, games still going stop (paused, with \"Time is up\" on "
                  "every board) and the results say \"not finished\". Unticked, the due time "
                  "is only shown. You can open a closed assignment again from its dashboard.")

    field_order = ["title", "table_size", "grouping", "bot_level", "due_at", "close_at_due"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        seats = "; ".join(f"{get_rules(k).title}: {get_rules(k).players_min} to "
                          f"{get_rules(k).players_max} players" for k in kinds())
        self.fields["table_size"].help_text = (
            "Each table plays one game, and a game seats as many players as its mode says "
            f"({seats}; solo games seat one). Students per table is how many of those seats "
            "go to students: at most the game's players (e.g. 2 students at a 4-player game "
            "leaves 2 seats). The students of a table take seats at random; seats left over "
            "go to bots, or stay open if you choose no bots. A class that does not divide "
            "evenly gets tables that differ by one student."
        )

    def clean(self):
        cleaned = super().clean()
        if "kind" not in cleaned:
            return cleaned
        if cleaned["solo"]:
            cleaned["table_size"] = 1
        if cleaned.get("close_at_due") and not cleaned.get("due_at"):
            self.add_error("due_at", "Choose the due time the games close at.")
        return cleaned
