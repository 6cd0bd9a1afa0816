from django.urls import path, re_path

from games import api, maps_api

urlpatterns = [
    path("games/<id:game_id>/", api.GameDetailApi.as_view(), name="api-game"),
    path("games/<id:game_id>/moves/", api.GameMoveApi.as_view(), name="api-game-moves"),
    # state maps (games.maps_api)
    path("maps/", maps_api.MapListApi.as_view(), name="api-maps"),
    path("maps/check/", maps_api.MapCheckApi.as_view(), name="api-maps-check"),
    path("maps/outline/", maps_api.MapOutlineApi.as_view(), name="api-maps-outline"),
    path("maps/<id:map_id>/", maps_api.MapDetailApi.as_view(), name="api-map"),
    path("maps/<id:map_id>/publish/", maps_api.MapPublishApi.as_view(), name="api-map-publish"),
    path("maps/<id:map_id>/unpublish/", maps_api.MapUnpublishApi.as_view(),
         name="api-map-unpublish"),
    re_path(r"^maps/", maps_api.MapNotFoundApi.as_view()),  # anything else: a JSON 404
    # the OpenAPI schema and its docs page (staff)
    path("schema/", maps_api.SchemaApi.as_view(), name="api-schema"),
    path("docs/", maps_api.DocsPage.as_view(), name="api-docs"),
]
