"""The state-map pages under /maps/ (namespace "maps")."""

from django.urls import path

from games import maps_views

app_name = "maps"
urlpatterns = [
    path("", maps_views.gallery, name="gallery"),
    path("new/", maps_views.new, name="new"),
    path("<id:map_id>/", maps_views.detail, name="detail"),
    path("<id:map_id>/preview.svg", maps_views.preview, name="preview"),
]
