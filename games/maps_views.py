"""State-map pages under /maps/: the gallery (teachers and staff), a map's page (staff change,
publish, unpublish or delete it there), its SVG preview, and the staff page that turns an
outline or a data file into a map (preview, fix, save, publish).  Parse, call a service,
render: every write goes through ``games.maps``; the outline draft is the API's
(``games.maps_api.outline_response``), so page and API answer alike."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from games import maps
from games.engine import get_rules
from games.maps_api import outline_response
from games.maps_raster import BERRY_TARGET_MAX, BERRY_TARGET_MIN, MAPMAKER_TARGETS, OutlineError
from games.maps_selectors import (
    can_read_maps,
    can_write_maps,
    map_for,
    map_kinds,
    map_summary,
    maps_for,
)
from games.maps_svg import map_svg


def _kind_choices(kinds):
    return [(k, get_rules(k).title) for k in kinds]


def _json_input(form, file_field, text_field, what):
    """The JSON a form got as a file or as pasted text (form errors otherwise)."""
    upload = form.cleaned_data.get(file_field)
    text = form.cleaned_data.get(text_field) or ""
    if upload is None and not text.strip():
        form.add_error(text_field, f"Choose a file or paste the {what}.")
        return None
    if upload is not None and upload.size > maps.MAX_UPLOAD_BYTES:
        form.add_error(file_field, f"The file is {maps.size_words(upload.size)}; the limit is "
                                   f"{maps.LIMIT_WORDS}.")
        return None
    try:
        if upload is not None:
            return maps.data_from_text(upload.read(), field=file_field)
        return maps.data_from_text(text, field=text_field)
    except maps.MapError as exc:
        for field, msgs in exc.errors.items():
            for msg in msgs:
                form.add_error(field if field in form.fields else None, msg)
        return None


class OutlineForm(forms.Form):
    kind = forms.ChoiceField(label="Game", choices=[])
    name = forms.CharField(max_length=maps.NAME_MAX, label="Name of the map")
    cells = forms.IntegerField(
        label="Berrymandering: cells", initial=48, min_value=BERRY_TARGET_MIN,
        max_value=BERRY_TARGET_MAX, required=False,
        widget=forms.NumberInput(attrs={"data-for-kind": "berrymandering"}),
        help_text="About this many square cells (the standard cake has 36: 9 rounds).")
    counties = forms.TypedChoiceField(
        label="Mapmaker: counties", coerce=int, initial=73, required=False,
        choices=[(n, f"{n} counties ({players})") for n, players in MAPMAKER_TARGETS.items()],
        widget=forms.Select(attrs={"data-for-kind": "mapmaker"}))
    outline_file = forms.FileField(label="Outline file (GeoJSON)", required=False)
    outline_text = forms.CharField(
        label="or paste the GeoJSON", required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
        help_text="A Polygon or MultiPolygon in longitude and latitude (or a Feature).")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = _kind_choices(["berrymandering", "mapmaker"])

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        data["target"] = data.get("cells") if kind == "berrymandering" else data.get("counties")
        if kind and data["target"] is None:
            self.add_error("cells" if kind == "berrymandering" else "counties",
                           "Say how big the board should be.")
        data["outline"] = _json_input(self, "outline_file", "outline_text", "outline")
        return data


class MapDataForm(forms.Form):
    kind = forms.ChoiceField(label="Game", choices=[])
    name = forms.CharField(max_length=maps.NAME_MAX, label="Name of the map")
    description = forms.CharField(max_length=maps.DESCRIPTION_MAX, required=False,
                                  widget=forms.Textarea(attrs={"rows": 2}))
    data_file = forms.FileField(label="Map data file (JSON)", required=False)
    data_text = forms.CharField(
        label="or the map data", required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "class": "map-json"}),
        help_text="Edit it to fix the map, then check it again.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = _kind_choices(map_kinds())

    def clean(self):
        data = super().clean()
        data["data"] = _json_input(self, "data_file", "data_text", "map data")
        return data


class MapEditForm(forms.Form):
    name = forms.CharField(max_length=maps.NAME_MAX)
    description = forms.CharField(max_length=maps.DESCRIPTION_MAX, required=False,
                                  widget=forms.Textarea(attrs={"rows": 2}))
    data_text = forms.CharField(
        label="Map data", required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "class": "map-json"}))


def _errors_into(form, exc, field_map):
    for field, msgs in exc.errors.items():
        target = field_map.get(field, field)
        for msg in msgs:
            form.add_error(target if target in form.fields else None, msg)


def _readable_or_403(request):
    if not can_read_maps(request.user):
        raise PermissionDenied("Maps are for teachers and staff.")


def _staff_or_403(request):
    if not can_write_maps(request.user):
        raise PermissionDenied("Only staff can change maps.")


def _pretty(data):
    return maps.compact_json(data)


@login_required
@require_GET
def gallery(request):
    _readable_or_403(request)
    groups = []
    for kind in map_kinds():
        items = [{"map": m, "summary": map_summary(kind, m.data)}
                 for m in maps_for(request.user, kind=kind)]
        groups.append({"kind": kind, "title": get_rules(kind).title, "maps": items})
    return render(request, "maps/gallery.html", {
        "groups": groups, "can_write": can_write_maps(request.user)})


@login_required
@require_GET
def preview(request, map_id):
    _readable_or_403(request)
    game_map = map_for(request.user, map_id)
    if game_map is None:
        raise Http404("There is no such map.")
    response = HttpResponse(map_svg(game_map.kind, game_map.data, game_map.name),
                            content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "private, max-age=300"
    return response


@login_required
def detail(request, map_id):
    _readable_or_403(request)
    game_map = map_for(request.user, map_id)
    if game_map is None:
        raise Http404("There is no such map.")
    form = None
    if can_write_maps(request.user):
        form = MapEditForm(initial={"name": game_map.name, "description": game_map.description,
                                    "data_text": _pretty(game_map.data)})
        if request.method == "POST":
            action = request.POST.get("action")
            try:
                if action in ("publish", "unpublish"):
                    maps.map_publish(map_id=game_map.pk, published=action == "publish")
                    messages.success(request, f"{game_map.name} is now "
                                              f"{'published' if action == 'publish' else 'hidden from teachers'}.")
                    return redirect("maps:detail", map_id=game_map.pk)
                if action == "delete":
                    maps.map_delete(map_id=game_map.pk)
                    messages.success(request, f"{game_map.name} was deleted; games played on "
                                              "it keep their map.")
                    return redirect("maps:gallery")
                form = MapEditForm(request.POST)
                if form.is_valid():
                    values = {"name": form.cleaned_data["name"],
                              "description": form.cleaned_data["description"]}
                    text = form.cleaned_data["data_text"]
                    if text.strip() and not game_map.builtin:
                        values["data"] = maps.data_from_text(text, field="data_text")
                    maps.map_update(map_id=game_map.pk, **values)
                    messages.success(request, "Saved.")
                    return redirect("maps:detail", map_id=game_map.pk)
            except maps.MapError as exc:
                if form is None or form.is_bound is False:
                    form = MapEditForm(request.POST or None)
                    form.is_valid()
                _errors_into(form, exc, {"data": "data_text", "non_field_errors": None})
    elif request.method == "POST":
        raise PermissionDenied("Only staff can change maps.")
    if form is not None and game_map.builtin:  # its data comes from the shipped files
        form.fields["data_text"].widget.attrs["readonly"] = True
    return render(request, "maps/detail.html", {
        "game_map": game_map, "title": get_rules(game_map.kind).title,
        "summary": map_summary(game_map.kind, game_map.data), "form": form,
        "can_write": form is not None,
    })


@login_required
def new(request):
    """Staff: an outline becomes a draft (preview, what was changed), or a data file is
    checked; the data can be fixed in place, checked again and saved."""
    _staff_or_403(request)
    outline_form = OutlineForm(prefix="o")
    data_form = MapDataForm(prefix="d")
    draft = checked = None
    action = request.POST.get("action") if request.method == "POST" else None
    if action == "outline":
        outline_form = OutlineForm(request.POST, request.FILES, prefix="o")
        if outline_form.is_valid():
            values = outline_form.cleaned_data
            try:
                draft = outline_response(values["outline"], kind=values["kind"],
                                         target=values["target"], name=values["name"])
            except OutlineError as exc:
                target = {"outline": "outline_text", "target": "cells"}.get(exc.field)
                outline_form.add_error(target if target in outline_form.fields else None,
                                       exc.message)
            except maps.MapError as exc:
                _errors_into(outline_form, exc, {})
            else:
                draft["svg"] = mark_safe(draft["svg"])  # noqa: S308 - our own markup
                data_form = MapDataForm(prefix="d", initial={
                    "kind": draft["kind"], "name": draft["name"],
                    "description": " ".join(draft["changes"]),
                    "data_text": _pretty(draft["data"])})
    elif action in ("check", "save", "publish"):
        data_form = MapDataForm(request.POST, request.FILES, prefix="d")
        if data_form.is_valid():
            values = data_form.cleaned_data
            kind, data = values["kind"], values["data"]
            problems = maps.map_problems(kind, {**data, "name": values["name"]}) \
                if isinstance(data, dict) else ["The map data must be a JSON object."]
            if problems:
                for problem in problems:
                    data_form.add_error("data_text", problem)
            elif action == "check":
                checked = {"svg": mark_safe(map_svg(kind, data, values["name"])),  # noqa: S308
                           "summary": map_summary(kind, data)}
                # show the data that was checked in the box, ready to save
                data_form = MapDataForm(prefix="d", initial={
                    **{k: values[k] for k in ("kind", "name", "description")},
                    "data_text": _pretty(data)})
            else:
                try:
                    game_map = maps.map_create(
                        kind=kind, name=values["name"], description=values["description"],
                        data=data, published=action == "publish", created_by=request.user)
                except maps.MapError as exc:
                    _errors_into(data_form, exc, {"data": "data_text",
                                                  "non_field_errors": None})
                else:
                    messages.success(request, f"{game_map.name} was saved"
                                     + (" and published." if game_map.published else
                                        ": publish it when it is ready."))
                    return redirect(reverse("maps:detail", args=[game_map.pk]))
    return render(request, "maps/new.html", {
        "outline_form": outline_form, "data_form": data_form, "draft": draft,
        "checked": checked, "limit": maps.LIMIT_WORDS,
    })
