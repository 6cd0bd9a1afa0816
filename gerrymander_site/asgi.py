"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Run with ``daphne gerrymander_site.asgi:application`` (any number of processes when the
Redis channel layer is configured).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gerrymander_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.bot_runner import remember_server_loop  # noqa: E402
from gerrymander_site.routing import websocket_urlpatterns  # noqa: E402

application = remember_server_loop(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)
