"""State maps, written: every change to a ``GameMap`` goes through here.

A map is saved only when its game's engine finds nothing wrong with it
(``rules.map_check``); refusals are ``MapError`` with the problems in words, per field.  A
game never points to a map: ``map_options`` copies the map's data into the engine options at
game creation (with the map's id, slug, name and version under ``map_ref``, for display), so
editing or deleting a map never changes a game, and every game still replays.

Built-in maps are JSON files in ``games/map_data/`` (written by ``manage.py
state_maps_build``); ``builtin_maps_load`` makes them published maps on every migrate.  Their
data comes from the files only: the API refuses to change it or to delete them (unpublish
one to hide it).
"""

import json
import logging
import re
from pathlib import Path

from django.db import transaction
from django.utils.text import slugify

from games.engine import get_rules
from games.maps_selectors import map_kinds
from games.models import GameMap
from gerrymander_site import jsonsafe

log = logging.getLogger(__name__)

MAP_DATA_DIR = Path(__file__).resolve().parent / "map_data"
MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # a whole request (file or JSON body)
MAX_DATA_BYTES = 1024 * 1024  # a map's data, as JSON
NAME_MAX, SLUG_MAX, DESCRIPTION_MAX = 80, 80, 2000


def size_words(n):
    return f"{n / (1024 * 1024):.1f} MB" if n >= 100 * 1024 else f"{max(1, round(n / 1024))} KB"


LIMIT_WORDS = size_words(MAX_UPLOAD_BYTES)


class MapError(Exception):
    """A refused map change.  ``errors``: {field: [sentences]}; ``message``: the first."""

    def __init__(self, errors, *, code="invalid", status=400):
        if isinstance(errors, str):
            errors = {"non_field_errors": [errors]}
        self.errors = errors
        self.code = code
        self.status = status
        self.message = next(iter(errors.values()))[0]
        super().__init__(self.message)


def game_title(kind):
    return get_rules(kind).title


def data_from_text(text, *, field="file"):
    """Map data (or an outline) from uploaded JSON text, or MapError saying why not."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_UPLOAD_BYTES:
            raise MapError({field: [f"The file is {size_words(len(text))}; the limit is "
                                    f"{LIMIT_WORDS}."]}, code="too_large", status=413)
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise MapError({field: ["The file is not text (UTF-8): upload a .json file."]}) \
                from None
    try:
        return jsonsafe.loads(text)
    except ValueError as exc:
        raise MapError({field: [f"The file is not valid JSON: {exc}"]}) from None


def compact_json(obj):
    """JSON for people (files, the page's edit box): indented, but each cell, county or mix
    ([x, y], [q, r, m], [a, b, c, d]) on one line."""
    text = json.dumps(obj, indent=1, ensure_ascii=False)
    return re.sub(r"\[\s+(-?\d+(?:,\s+-?\d+){1,3})\s+\]",
                  lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)


def map_problems(kind, data):
    """What is wrong with ``data`` as a map of ``kind``, in words ([]: playable)."""
    if kind not in map_kinds():
        return [f"{kind!s} is not a game that takes maps."]
    try:
        size = len(json.dumps(data))
    except (TypeError, ValueError):
        return ["The map data must be plain JSON."]
    if size > MAX_DATA_BYTES:
        return [f"The map data is {size_words(size)}; the limit is "
                f"{size_words(MAX_DATA_BYTES)}."]
    try:
        return list(get_rules(kind).map_check(data))
    except Exception:  # an engine must never raise here; refuse rather than fail
        log.exception("map_check raised for %s", kind)
        return ["This map could not be checked: please check its shape against the docs."]


def _clean_text(value, field, limit, *, required):
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise MapError({field: ["This must be text."]})
    value = " ".join(value.split()) if field == "name" else value.strip()
    if required and not value:
        raise MapError({field: ["Give the map a name."]})
    if len(value) > limit:
        raise MapError({field: [f"At most {limit} characters."]})
    if any(ord(ch) < 32 and ch not in "\n\r\t" for ch in value):
        raise MapError({field: ["This contains control characters."]})
    return value


def _clean_slug(slug, name, kind, *, exclude=None):
    slug = slugify(slug or "")[:SLUG_MAX] if slug else slugify(name)[:SLUG_MAX]
    if not slug:
        raise MapError({"slug": ["Give a short name in letters, digits and dashes (a slug)."]})
    taken = GameMap.objects.filter(kind=kind, slug=slug)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    if taken.exists():
        raise MapError({"slug": [f"A {game_title(kind)} map called \"{slug}\" already exists: "
                                 "choose another name or slug."]}, code="slug_taken")
    return slug


def _with_name(data, name):
    """The map data with the map's name (engines show it; First Past the Post needs it)."""
    return {**data, "name": name} if isinstance(data, dict) else data


def _checked(kind, data, name):
    if not isinstance(data, dict):
        raise MapError({"data": ["The map data must be a JSON object."]})
    data = _with_name(data, name)
    problems = map_problems(kind, data)
    if problems:
        raise MapError({"data": problems}, code="map_problems")
    return data


@transaction.atomic
def map_create(*, kind, name, data, slug="", description="", published=False,
               created_by=None, builtin=False):
    """Save a new map (refused with MapError unless its engine accepts the data)."""
    if kind not in map_kinds():
        raise MapError({"kind": ["Choose a game that takes maps: "
                                 + ", ".join(map_kinds()) + "."]})
    name = _clean_text(name, "name", NAME_MAX, required=True)
    description = _clean_text(description, "description", DESCRIPTION_MAX, required=False)
    data = _checked(kind, data, name)
    slug = _clean_slug(slug, name, kind)
    return GameMap.objects.create(
        kind=kind, name=name, slug=slug, description=description, data=data,
        published=bool(published), created_by=created_by, builtin=builtin,
    )


@transaction.atomic
def map_update(*, map_id, name=None, slug=None, description=None, data=None, published=None):
    """Change a map's fields (None: unchanged).  New data must pass the engine's check and
    raises the version; games already made keep the data they copied."""
    game_map = GameMap.objects.select_for_update().get(pk=map_id)
    if name is not None:
        game_map.name = _clean_text(name, "name", NAME_MAX, required=True)
    if description is not None:
        game_map.description = _clean_text(description, "description", DESCRIPTION_MAX,
                                           required=False)
    if slug is not None:
        game_map.slug = _clean_slug(slug, game_map.name, game_map.kind, exclude=game_map)
    if data is not None:
        if game_map.builtin:
            raise MapError({"data": ["This is a built-in map: its data comes from the files "
                                     "shipped with the site. Save a copy under a new name to "
                                     "change its cells."]}, code="builtin")
        data = _checked(game_map.kind, data, game_map.name)
    elif name is not None:
        data = _with_name(game_map.data, game_map.name)
    if data is not None and data != game_map.data:
        game_map.data = data
        game_map.version += 1
    if published is not None:
        game_map.published = bool(published)
    game_map.save()
    return game_map


def map_publish(*, map_id, published=True):
    return map_update(map_id=map_id, published=published)


@transaction.atomic
def map_delete(*, map_id):
    game_map = GameMap.objects.select_for_update().get(pk=map_id)
    if game_map.builtin:
        raise MapError("This is a built-in map: it comes back on every update of the site. "
                       "Unpublish it to hide it from teachers.", code="builtin")
    game_map.delete()


class MapUnavailable(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message
        self.code = "map"


def map_options(*, kind, options, map_id):
    """The engine ``options`` with the published map ``map_id``'s data under ``"map"`` and
    ``{"id", "slug", "name", "version"}`` under ``"map_ref"``; unchanged when ``map_id`` is
    None or "".  MapUnavailable when the map is gone, unpublished or for another game."""
    if map_id in (None, ""):
        return dict(options)
    try:
        map_id = int(map_id)
    except (TypeError, ValueError):
        raise MapUnavailable("That map does not exist.") from None
    game_map = GameMap.objects.filter(pk=map_id, kind=kind, published=True).first()
    if game_map is None:
        raise MapUnavailable("That map is no longer available: choose another one.")
    return {**options, "map": game_map.data,
            "map_ref": {"id": game_map.pk, "slug": game_map.slug, "name": game_map.name,
                        "version": game_map.version}}


# ---------------------------------------------------------------------------- built-in maps

def builtin_files(directory=None):
    return sorted(Path(directory or MAP_DATA_DIR).glob("*.json"))


def builtin_read(path):
    entry = json.loads(Path(path).read_text(encoding="utf-8"))
    return {k: entry[k] for k in ("kind", "slug", "name", "description", "data")}


def builtin_maps_load(model=None, *, using="default", directory=None):
    """Make every file in ``games/map_data/`` a published built-in map: new ones are created,
    changed ones get the new data and a new version.  Staff's name, description and
    publishing choices are kept.  Returns (created, updated).  ``model``: the GameMap model
    to use (a migration's historical model); ``directory``: another folder of such files."""
    model = model or GameMap
    created = updated = 0
    for path in builtin_files(directory):
        entry = builtin_read(path)
        if entry["kind"] not in map_kinds():
            continue
        row = model.objects.using(using).filter(kind=entry["kind"], slug=entry["slug"]).first()
        if row is None:
            model.objects.using(using).create(
                kind=entry["kind"], slug=entry["slug"], name=entry["name"],
                description=entry["description"], data=entry["data"], published=True,
                builtin=True)
            created += 1
        elif not row.builtin:
            log.warning("built-in map %s/%s not loaded: an uploaded map has its slug",
                        entry["kind"], entry["slug"])
        elif row.data != entry["data"]:
            row.data = entry["data"]
            row.version += 1
            row.save(update_fields=["data", "version", "updated_at"])
            updated += 1
    return created, updated


def builtin_maps_on_migrate(sender, *, apps=None, using="default", **kwargs):
    """post_migrate: load the built-in maps once the games app's tables exist."""
    if getattr(sender, "name", None) != "games":
        return
    try:
        model = apps.get_model("games", "GameMap") if apps is not None else GameMap
    except LookupError:  # migrated back before the maps existed
        return
    builtin_maps_load(model, using=using)
