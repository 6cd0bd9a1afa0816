from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.urls import include, path

from classrooms.forms import RateLimitedAuthenticationForm
from gerrymander_site import converters  # noqa: F401 - registers <id:...>


class AdminLoginForm(RateLimitedAuthenticationForm, AdminAuthenticationForm):
    """The admin login is rate-limited like every other password check."""


admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("classrooms.urls")),
    path("games/", include("games.urls")),
    path("api/", include("games.api_urls")),
    path("maps/", include("games.maps_urls")),  # state maps: gallery and staff pages
]
