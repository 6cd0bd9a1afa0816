from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("classrooms.urls")),
    path("games/", include("games.urls")),
    path("api/", include("games.api_urls")),
]
