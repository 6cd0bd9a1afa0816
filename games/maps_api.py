"""The state-maps API under ``/api/maps/`` (DRF), its OpenAPI schema and docs page.

Staff create, update, publish, unpublish and delete maps, check map data and turn outlines
into drafts; teachers list and read published maps; students and strangers are refused.
Bodies are JSON (``SafeJSONParser``: no deep nesting, no NaN) or multipart with a ``file``;
a request over ``MAX_UPLOAD_BYTES`` is refused with 413 and the limit in words.  Every
refusal is ``{"code", "message", "errors"?: {field: [sentences]}}``, the sentences coming
from the engine's ``map_check`` for map data.
"""

from django.http import Http404
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework import exceptions, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from games import maps
from games.maps_raster import (
    BERRY_TARGET_MAX,
    BERRY_TARGET_MIN,
    RASTER_KINDS,
    OutlineError,
    outline_draft,
    outline_parse,
)
from games.maps_selectors import (
    can_read_maps,
    can_write_maps,
    map_for,
    map_kinds,
    map_summary,
    maps_for,
)
from games.maps_svg import draft_svg, map_svg
from games.models import GameMap
from gerrymander_site.parsers import SafeJSONParser

# --------------------------------------------------------------------------- permissions


class MapsPermission(BasePermission):
    """Reading: teachers and staff.  Everything else (and views marked ``staff_only``):
    staff."""

    def has_permission(self, request, view):
        if request.method in SAFE_METHODS and not getattr(view, "staff_only", False):
            if can_read_maps(request.user):
                return True
            self.message = "Maps are for teachers and staff."
            return False
        if can_write_maps(request.user):
            return True
        self.message = "Only staff can do this."
        return False


class IsStaff(BasePermission):
    message = "Only staff can read the API's schema."

    def has_permission(self, request, view):
        return can_write_maps(request.user)


# --------------------------------------------------------------------------- serializers


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()),
                                   required=False)


KIND_HELP = "The game: " + ", ".join(f'"{k}"' for k in ("mapmaker", "berrymandering", "fptp"))
DATA_HELP = ("The map data, as the game's engine reads it (see the README, \"State maps\"). "
             "The engine's map_check must accept it.")
FILE_HELP = f"A UTF-8 JSON file (at most {maps.LIMIT_WORDS})."


class MapListItemSerializer(serializers.ModelSerializer):
    game = serializers.SerializerMethodField()
    created_by = serializers.SerializerMethodField()
    summary = serializers.SerializerMethodField()
    preview_url = serializers.SerializerMethodField()

    class Meta:
        model = GameMap
        fields = ["id", "kind", "game", "name", "slug", "description", "version", "published",
                  "builtin", "created_by", "created_at", "updated_at", "summary", "preview_url"]

    def get_game(self, obj) -> str:
        return maps.game_title(obj.kind)

    def get_created_by(self, obj) -> str | None:
        return obj.created_by.get_username() if obj.created_by_id else None

    def get_summary(self, obj) -> list[str]:
        return map_summary(obj.kind, obj.data)

    def get_preview_url(self, obj) -> str:
        return f"/maps/{obj.pk}/preview.svg"


class MapSerializer(MapListItemSerializer):
    data = serializers.JSONField()
    svg = serializers.SerializerMethodField()

    class Meta(MapListItemSerializer.Meta):
        fields = [*MapListItemSerializer.Meta.fields, "data", "svg"]

    def get_svg(self, obj) -> str:
        return map_svg(obj.kind, obj.data, obj.name)


def _kind_field():
    return serializers.CharField(max_length=40, help_text=KIND_HELP)


class MapCreateSerializer(serializers.Serializer):
    kind = _kind_field()
    name = serializers.CharField(max_length=maps.NAME_MAX, help_text="The map's name.")
    slug = serializers.CharField(max_length=maps.SLUG_MAX, required=False, allow_blank=True,
                                 help_text="A short name for URLs (default: from the name).")
    description = serializers.CharField(max_length=maps.DESCRIPTION_MAX, required=False,
                                        allow_blank=True)
    data = serializers.JSONField(help_text=DATA_HELP)
    published = serializers.BooleanField(required=False, default=False,
                                         help_text="Offer it to teachers at once.")


class MapCreateUploadSerializer(MapCreateSerializer):
    data = None
    file = serializers.FileField(help_text=FILE_HELP + " Its content is the map data.")


class MapUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=maps.NAME_MAX, required=False)
    slug = serializers.CharField(max_length=maps.SLUG_MAX, required=False, allow_blank=True)
    description = serializers.CharField(max_length=maps.DESCRIPTION_MAX, required=False,
                                        allow_blank=True)
    data = serializers.JSONField(required=False, help_text=DATA_HELP)
    published = serializers.BooleanField(required=False)


class MapUpdateUploadSerializer(MapUpdateSerializer):
    data = None
    file = serializers.FileField(required=False, help_text=FILE_HELP + " The new map data.")


class MapCheckSerializer(serializers.Serializer):
    kind = _kind_field()
    data = serializers.JSONField(help_text=DATA_HELP)


class MapCheckUploadSerializer(serializers.Serializer):
    kind = _kind_field()
    file = serializers.FileField(help_text=FILE_HELP + " Its content is the map data.")


class MapCheckResultSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    problems = serializers.ListField(child=serializers.CharField())
    summary = serializers.ListField(child=serializers.CharField())
    svg = serializers.CharField(allow_null=True)


TARGET_HELP = (f"Berrymandering: the number of square cells wanted ({BERRY_TARGET_MIN} to "
               f"{BERRY_TARGET_MAX}; the draft has a multiple of 4, within 10%). Mapmaker: 37, "
               "55 or 73 counties (2, up to 3, or up to 4 players).")


class OutlineSerializer(serializers.Serializer):
    kind = serializers.CharField(max_length=40, help_text='"berrymandering" or "mapmaker".')
    target = serializers.IntegerField(help_text=TARGET_HELP)
    name = serializers.CharField(max_length=maps.NAME_MAX, required=False, default="Map")
    outline = serializers.JSONField(help_text="A GeoJSON Polygon or MultiPolygon in longitude "
                                              "and latitude (or a Feature or "
                                              "FeatureCollection of them).")


class OutlineUploadSerializer(OutlineSerializer):
    outline = None
    file = serializers.FileField(help_text=FILE_HELP + " A GeoJSON file of the outline.")


class DraftSerializer(serializers.Serializer):
    kind = serializers.CharField()
    name = serializers.CharField()
    data = serializers.JSONField(help_text="The board, ready to save with POST /api/maps/.")
    changes = serializers.ListField(child=serializers.CharField(),
                                    help_text="What was changed so that the map plays.")
    cells = serializers.IntegerField()
    target = serializers.IntegerField()
    fit = serializers.FloatField(help_text="How well the cells cover the outline, 0 to 1.")
    summary = serializers.ListField(child=serializers.CharField())
    svg = serializers.CharField(help_text="A preview: the cells, the outline, added cells "
                                          "highlighted, dropped islands dashed.")


# --------------------------------------------------------------------------- examples

EXAMPLE_CAKE = {"cells": [[x, y] for y in range(2) for x in range(4)],
                "tiles": {"random": 2, "berries": [[2, 1, 0, 0], [2, 1, 0, 0]]},
                "mystery": [[1, 0, 0, 0], [1, 0, 0, 0]]}
EXAMPLE_OUTLINE = {"type": "Polygon", "coordinates": [[
    [-109.05, 41.0], [-102.05, 41.0], [-102.05, 37.0], [-109.05, 37.0], [-109.05, 41.0]]]}
CREATE_EXAMPLE = OpenApiExample(
    "A Berrymandering cake of 8 cells", request_only=True, media_type="application/json",
    value={"kind": "berrymandering", "name": "Two by four", "data": EXAMPLE_CAKE})
CHECK_EXAMPLE = OpenApiExample(
    "Check a cake", request_only=True, media_type="application/json",
    value={"kind": "berrymandering", "data": EXAMPLE_CAKE})
OUTLINE_EXAMPLE = OpenApiExample(
    "Colorado as a Berrymandering cake of about 40 cells", request_only=True,
    media_type="application/json",
    value={"kind": "berrymandering", "target": 40, "name": "Colorado",
           "outline": EXAMPLE_OUTLINE})


# --------------------------------------------------------------------------- helpers


def _errors(*codes):
    return {code: ErrorSerializer for code in codes}


def _flatten(detail):
    """DRF's error detail (lists, dicts, nested) as a list of sentences."""
    if isinstance(detail, dict):
        return [f"{k}: {m}" if k != "non_field_errors" else m
                for k, v in detail.items() for m in _flatten(v)]
    if isinstance(detail, (list, tuple)):
        return [m for item in detail for m in _flatten(item)]
    return [str(detail)]


def _invalid(errors, code="invalid", http=status.HTTP_400_BAD_REQUEST):
    errors = {field: _flatten(msgs) for field, msgs in errors.items()}
    field, msgs = next(iter(errors.items()))
    message = msgs[0] if field == "non_field_errors" else f"{field}: {msgs[0]}"
    return Response({"code": code, "message": message, "errors": errors}, status=http)


def _map_error(exc):
    return _invalid(exc.errors, exc.code, exc.status)


# The <id:...> converter: 1 to 18 digits.
MAP_ID = OpenApiParameter("map_id", {"type": "integer", "minimum": 0,
                                     "maximum": 999999999999999999},
                          OpenApiParameter.PATH, description="The map's id.")


class _MapsView(APIView):
    parser_classes = [SafeJSONParser, MultiPartParser]
    permission_classes = [MapsPermission]
    staff_only = False

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > maps.MAX_UPLOAD_BYTES:
            raise _TooLarge(f"The upload is {maps.size_words(length)}; the limit is "
                            f"{maps.LIMIT_WORDS}.")

    def handle_exception(self, exc):
        if isinstance(exc, Http404):
            exc = exceptions.NotFound("There is no such map.")
        response = super().handle_exception(exc)
        detail = response.data.get("detail") if isinstance(response.data, dict) else None
        if detail is not None:
            code = getattr(detail, "code", None) or "error"
            message = str(detail)
            if isinstance(exc, exceptions.NotAuthenticated):
                message = "Sign in, or send a token (Authorization: Token <key>)."
            response.data = {"code": str(code), "message": message}
        return response

    def body(self, request, json_serializer, upload_serializer, *, file_field="data",
             partial=False):
        """Validated input: from JSON, or from multipart with the file read as JSON."""
        multipart = request.content_type.startswith("multipart/")
        if not multipart and not isinstance(request.data, dict):
            raise _Invalid({"non_field_errors": ["The body must be a JSON object."]})
        serializer = (upload_serializer if multipart else json_serializer)(
            data=request.data, partial=partial)
        if not serializer.is_valid():
            raise _Invalid(serializer.errors)
        values = dict(serializer.validated_data)
        upload = values.pop("file", None)
        if upload is not None:
            if upload.size > maps.MAX_UPLOAD_BYTES:
                raise maps.MapError({"file": [f"The file is {maps.size_words(upload.size)}; "
                                              f"the limit is {maps.LIMIT_WORDS}."]},
                                    code="too_large", status=413)
            values[file_field] = maps.data_from_text(upload.read(), field="file")
        return values

    def get_map(self, map_id):
        game_map = map_for(self.request.user, map_id)
        if game_map is None:
            raise exceptions.NotFound("There is no such map.")
        return game_map


class _TooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


class _Invalid(Exception):
    def __init__(self, errors):
        super().__init__("invalid")
        self.errors = errors


def _guard(handler):
    """Answer service and validation refusals in the common shape."""
    def wrapped(self, request, *args, **kwargs):
        try:
            return handler(self, request, *args, **kwargs)
        except _Invalid as exc:
            return _invalid(exc.errors)
        except maps.MapError as exc:
            return _map_error(exc)
        except OutlineError as exc:
            return _invalid({exc.field: [exc.message]}, code="outline")
    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped


def _kind_check(kind, allowed):
    if kind not in allowed:
        raise _Invalid({"kind": [f"Choose one of: {', '.join(allowed)}."]})


# --------------------------------------------------------------------------- views


class MapListApi(_MapsView):
    @extend_schema(
        summary="List maps",
        description="Teachers: the published maps. Staff: every map.",
        parameters=[OpenApiParameter("kind", str, description="Only this game's maps.",
                                     enum=["mapmaker", "berrymandering", "fptp"])],
        responses={200: MapListItemSerializer(many=True), **_errors(400, 403, 429)},
    )
    @_guard
    def get(self, request):
        kind = request.query_params.get("kind")
        if kind is not None:
            _kind_check(kind, map_kinds())
        items = maps_for(request.user, kind=kind)
        return Response(MapListItemSerializer(items, many=True).data)

    @extend_schema(
        summary="Upload a map (staff)",
        description="JSON with the map data, or multipart with the data as a JSON file. The "
                    "game's engine checks it; every problem is listed under errors.data.",
        request={"application/json": MapCreateSerializer,
                 "multipart/form-data": MapCreateUploadSerializer},
        responses={201: MapSerializer, **_errors(400, 403, 413, 415, 429)},
        examples=[CREATE_EXAMPLE],
    )
    @_guard
    def post(self, request):
        values = self.body(request, MapCreateSerializer, MapCreateUploadSerializer)
        _kind_check(values["kind"], map_kinds())
        game_map = maps.map_create(created_by=request.user, **values)
        return Response(MapSerializer(game_map).data, status=status.HTTP_201_CREATED)


class MapDetailApi(_MapsView):
    @extend_schema(summary="Read a map", parameters=[MAP_ID],
                   description="Teachers read published maps only.",
                   responses={200: MapSerializer, **_errors(403, 404, 429)})
    def get(self, request, map_id):
        return Response(MapSerializer(self.get_map(map_id)).data)

    @extend_schema(
        summary="Change a map (staff)", parameters=[MAP_ID],
        description="Any of the fields; new data must pass the engine's check and raises the "
                    "version. Games already made keep the map they started with.",
        request={"application/json": MapUpdateSerializer,
                 "multipart/form-data": MapUpdateUploadSerializer},
        responses={200: MapSerializer, **_errors(400, 403, 404, 413, 415, 429)},
    )
    @_guard
    def patch(self, request, map_id):
        game_map = self.get_map(map_id)
        values = self.body(request, MapUpdateSerializer, MapUpdateUploadSerializer,
                           partial=True)
        game_map = maps.map_update(map_id=game_map.pk, **values)
        return Response(MapSerializer(game_map).data)

    @extend_schema(summary="Delete a map (staff)", parameters=[MAP_ID],
                   description="Games already made keep their map. Built-in maps cannot be "
                               "deleted (unpublish them).",
                   responses={204: None, **_errors(400, 403, 404, 429)})
    @_guard
    def delete(self, request, map_id):
        maps.map_delete(map_id=self.get_map(map_id).pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _publish(request, view, map_id, published):
    game_map = maps.map_publish(map_id=view.get_map(map_id).pk, published=published)
    return Response(MapSerializer(game_map).data)


class MapPublishApi(_MapsView):
    @extend_schema(summary="Publish a map (staff): teachers see it and can play on it",
                   parameters=[MAP_ID], request=None,
                   responses={200: MapSerializer, **_errors(403, 404, 429)})
    def post(self, request, map_id):
        return _publish(request, self, map_id, True)


class MapUnpublishApi(_MapsView):
    @extend_schema(summary="Unpublish a map (staff): hidden from teachers; games keep it",
                   parameters=[MAP_ID], request=None,
                   responses={200: MapSerializer, **_errors(403, 404, 429)})
    def post(self, request, map_id):
        return _publish(request, self, map_id, False)


class MapCheckApi(_MapsView):
    staff_only = True

    @extend_schema(
        summary="Check map data without saving it (staff)",
        request={"application/json": MapCheckSerializer,
                 "multipart/form-data": MapCheckUploadSerializer},
        responses={200: MapCheckResultSerializer, **_errors(400, 403, 413, 415, 429)},
        examples=[CHECK_EXAMPLE],
    )
    @_guard
    def post(self, request):
        values = self.body(request, MapCheckSerializer, MapCheckUploadSerializer)
        _kind_check(values["kind"], map_kinds())
        kind, data = values["kind"], values["data"]
        problems = maps.map_problems(kind, data)
        ok = not problems
        return Response({
            "ok": ok, "problems": problems,
            "summary": map_summary(kind, data) if ok else [],
            "svg": map_svg(kind, data) if ok else None,
        })


class MapOutlineApi(_MapsView):
    staff_only = True

    @extend_schema(
        summary="Turn an outline into a draft board (staff); nothing is saved",
        description="Projects the outline, lays square cells (Berrymandering) or hexes "
                    "(Mapmaker) over it, repairs islands so the map plays and says what it "
                    "changed. Save the draft's data with POST /api/maps/.",
        request={"application/json": OutlineSerializer,
                 "multipart/form-data": OutlineUploadSerializer},
        responses={200: DraftSerializer, **_errors(400, 403, 413, 415, 429)},
        examples=[OUTLINE_EXAMPLE],
    )
    @_guard
    def post(self, request):
        values = self.body(request, OutlineSerializer, OutlineUploadSerializer,
                           file_field="outline")
        return Response(outline_response(values["outline"], kind=values["kind"],
                                         target=values["target"], name=values["name"]))


def outline_response(outline, *, kind, target, name):
    """A draft's JSON (shared with the staff page); OutlineError or MapError when refused."""
    if kind not in RASTER_KINDS:
        raise OutlineError("Outlines become Berrymandering or Mapmaker boards; First Past the "
                           "Post maps are uploaded as map data.", field="kind")
    name = maps._clean_text(name, "name", maps.NAME_MAX, required=True)
    geom = outline_parse(outline)
    draft = outline_draft(geom, kind=kind, target=target, name=name)
    return {
        "kind": kind, "name": draft["name"], "data": draft["data"],
        "changes": draft["changes"], "cells": draft["cells"], "target": target,
        "fit": draft["fit"], "summary": map_summary(kind, draft["data"]),
        "svg": draft_svg(draft),
    }


@extend_schema(exclude=True)
class MapNotFoundApi(_MapsView):
    """Any other path under /api/maps/ (e.g. an id that is not a number): the API's own 404,
    in JSON like every other answer, not the site's HTML page."""

    def _missing(self, request, *args, **kwargs):
        raise exceptions.NotFound("There is no such map.")

    get = post = put = patch = delete = _missing


# --------------------------------------------------------------------------- schema, docs


class SchemaApi(SpectacularAPIView):
    permission_classes = [IsStaff]


class DocsPage(SpectacularSwaggerSplitView):
    """Swagger UI from the sidecar's files; its init script is served as a file (``?script``),
    and the page's own template has no inline script or style (the site's CSP)."""

    permission_classes = [IsStaff]
    url_name = "api-schema"
    template_name = "maps/api_docs.html"
    title = "Gerrymander Classroom API"
