"""Names as teachers paste them, and short names that tell classmates apart (pure Python).

A student has two names here:

* the *full name*, as the teacher pasted it or the student typed it ("Liam Nguyen"): the
  teacher's roster, results and CSV show it (kept on ``StudentAccount.full_name``);
* the *display name*, short and unique in the class that made the account ("Liam", or
  "Liam Ng." when there is another Liam): the account's ``first_name``, which everything
  else shows (game pages, logs, dashboards, "my games").

Rosters are read line by line: spreadsheet columns (tabs, with or without a header row such as
"First name<TAB>Last name"), "Last, First" lines, or "First Last" lines.
"""

import re
from dataclasses import dataclass, field

# Header cells that name a column (compared lower-case, without spaces, dots or underscores).
_FIRST_HEADERS = {"first", "firstname", "firstnames", "given", "givenname", "forename",
                  "prenom", "prénom", "vorname", "nombre", "preferredname", "preferred"}
_LAST_HEADERS = {"last", "lastname", "surname", "familyname", "family", "nom", "nachname",
                 "apellido", "apellidos"}
_FULL_HEADERS = {"name", "fullname", "student", "studentname", "pupil", "names", "students"}
# What may follow a comma without being a first name ("Ben Smith, Jr.").
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "junior", "senior"}


@dataclass
class RosterLine:
    """One student read from a roster paste: ``first`` and ``last`` name (``last`` may be
    empty), the ``source`` line, and ``notes`` (codes: "last_first", "columns")."""

    first: str
    last: str
    source: str
    notes: list = field(default_factory=list)

    @property
    def full(self):
        return f"{self.first} {self.last}".strip()


@dataclass
class Roster:
    lines: list
    header: str = ""  # the header row that was skipped, if any


def _key(cell):
    return re.sub(r"[\s._\-]", "", cell.lower())


def _spaces(text):
    return " ".join(text.split())


def _header_columns(cells):
    """``(first column, last column, full-name column)`` when ``cells`` is a header row (any
    may be None), else None."""
    first = last = full = None
    for index, cell in enumerate(cells):
        key = _key(cell)
        if key in _FIRST_HEADERS and first is None:
            first = index
        elif key in _LAST_HEADERS and last is None:
            last = index
        elif key in _FULL_HEADERS and full is None:
            full = index
    if first is None and last is None and full is None:
        return None
    return first, last, full


def split_name(text):
    """``(first, last)`` of one name: "Last, First" when there is one comma (not before a
    suffix such as "Jr."), else the first word and the rest."""
    text = _spaces(text)
    if text.count(",") == 1:
        before, after = (_spaces(part) for part in text.split(","))
        if before and after and after.lower() not in _SUFFIXES:
            return after, before, True
    words = text.split(" ")
    return words[0].rstrip(",") or words[0], " ".join(words[1:]), False


def roster_read(text):
    """Read a roster paste into ``Roster`` (no check of lengths: see services)."""
    rows = [line for line in (text or "").splitlines() if line.strip()]
    columns = None  # (first, last, full) column indexes, once a header row is seen
    header = ""
    lines = []
    for number, raw in enumerate(rows):
        if "\t" in raw:
            cells = [_spaces(cell) for cell in raw.split("\t")]
            if number == 0 and columns is None:
                found = _header_columns(cells)
                if found is not None:
                    columns, header = found, _spaces(raw.replace("\t", " · "))
                    continue
            if columns is not None:
                first_i, last_i, full_i = columns
                first = cells[first_i] if first_i is not None and first_i < len(cells) else ""
                last = cells[last_i] if last_i is not None and last_i < len(cells) else ""
                if not first and not last and full_i is not None and full_i < len(cells):
                    first, last, swapped = split_name(cells[full_i])
                    notes = ["last_first"] if swapped else []
                else:
                    notes = ["columns"]
            else:
                filled = [cell for cell in cells if cell]
                if not filled:
                    continue
                first, last = filled[0], " ".join(filled[1:2])
                notes = ["columns"]
            if not (first or last):
                continue
            if not first:  # a last name alone
                first, last = last, ""
            lines.append(RosterLine(_spaces(first), _spaces(last), _spaces(raw), notes))
            continue
        if number == 0 and _key(raw) in _FULL_HEADERS | _FIRST_HEADERS | _LAST_HEADERS:
            header = _spaces(raw)  # a one-column sheet's header ("Name", "Students")
            continue
        first, last, swapped = split_name(raw)
        lines.append(RosterLine(first, last, _spaces(raw), ["last_first"] if swapped else []))
    return Roster(lines=lines, header=header)


def _fold(text):
    return text.casefold()


def unique_display_names(new, existing=()):
    """Short, class-unique display names for ``new`` people, given as ``(first, last)``.

    ``existing``: ``(display name, first, last)`` of the class's students (``first``/``last``
    may be "" when unknown).  A first name that nobody else in the class has is the display
    name ("Ana"); people who share one get the shortest start of their last name that tells
    them apart ("Liam N." and "Liam Ng."; the whole last name takes no dot), and people with
    the very same name a number ("Liam Ng 2").  Existing display names never change.
    """
    taken = {_fold(display) for display, _, _ in existing}
    firsts = {}
    for _, first, last in existing:
        if first:
            firsts.setdefault(_fold(first), []).append(last)
    for first, last in new:
        firsts.setdefault(_fold(first), []).append(last)
    names = []
    for first, last in new:
        group = firsts[_fold(first)]
        candidates = []
        if len(group) == 1:
            candidates.append(first)
        if last:
            others = list(group)
            others.remove(last)
            for size in range(1, len(last) + 1):
                start = _fold(last[:size])
                if not any(_fold(other[:size]) == start for other in others):
                    candidates.append(f"{first} {last[:size]}{'.' if size < len(last) else ''}")
                    break
            candidates.append(f"{first} {last}")
        else:
            candidates.append(first)
        name = next((c for c in candidates if _fold(c) not in taken), None)
        number = 2
        while name is None:
            candidate = f"{candidates[-1]} {number}"
            if _fold(candidate) not in taken:
                name = candidate
            number += 1
        taken.add(_fold(name))
        names.append(name)
    return names


def labels_unique(people):
    """Teacher-facing labels for rows that must never look alike: ``people`` is
    ``[(key, full name, display name, username)]``; returns ``{key: label}``: the full name,
    with the display name after it when two share a full name, and the username when even
    that is shared."""
    by_full = {}
    for key, full, display, username in people:
        by_full.setdefault(_fold(full), []).append((key, full, display, username))
    labels = {}
    for group in by_full.values():
        if len(group) == 1:
            key, full, _, _ = group[0]
            labels[key] = full
            continue
        displays = [_fold(d) for _, _, d, _ in group]
        for key, full, display, username in group:
            if displays.count(_fold(display)) == 1:
                labels[key] = full if _fold(display) == _fold(full) else f"{full} ({display})"
            else:
                labels[key] = f"{full} ({username})"
    return labels
