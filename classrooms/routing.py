from django.urls import path

from classrooms import consumers

websocket_urlpatterns = [
    path("ws/me/", consumers.MeConsumer.as_asgi()),
    path("ws/assignments/<id:assignment_id>/", consumers.DashboardConsumer.as_asgi()),
]
