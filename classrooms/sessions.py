"""A user's sockets end with their session (connected in ``ClassroomsConfig.ready``).

A password change or reset, a deactivation, or signing out closes every socket that session
(or that user) has open, at once and in every process, with a code the page explains.  The
move service checks the session again on every move from a socket, so nothing slips in
between.
"""

from django.db import transaction

from gerrymander_site.sockets import CLOSE_ACCOUNT_OFF, CLOSE_SIGNED_OUT, sockets_close


def remember_account_state(sender, instance, **kwargs):
    """Before a user is saved: note whether the password or ``is_active`` changes."""
    instance._sockets_close_code = None
    if instance.pk is None:
        return
    old = sender.objects.filter(pk=instance.pk).values("password", "is_active").first()
    if old is None:
        return
    if old["is_active"] and not instance.is_active:
        instance._sockets_close_code = CLOSE_ACCOUNT_OFF
    elif old["password"] != instance.password:
        instance._sockets_close_code = CLOSE_SIGNED_OUT


def close_sockets_after_account_change(sender, instance, **kwargs):
    code = getattr(instance, "_sockets_close_code", None)
    if code is not None:
        user_id = instance.pk
        transaction.on_commit(lambda: sockets_close(user_id=user_id, code=code), robust=True)


def close_sockets_on_logout(sender, request, user, **kwargs):
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        sockets_close(session_key=session.session_key, code=CLOSE_SIGNED_OUT)
