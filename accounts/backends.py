"""The login backend: one password hash for every answer.

Django's ModelBackend hashes once for a wrong password and once (a dummy) for an
unknown address; the login form then had to hash a second time to tell an
unconfirmed account with the right password from a wrong one – twice the time,
which told a stranger that the account exists. Here the one check decides:

- unknown address or wrong password: ``PermissionDenied``, so no later backend
  hashes again (``authenticate()`` stops and sends ``user_login_failed``, which
  django-axes counts);
- right password: the account, confirmed or not; the login form refuses an
  unconfirmed one with its own message (only who knows the password learns it).

``get_user`` stays ModelBackend's: a deactivated account's session ends.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied


class AccountBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        User = get_user_model()
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        try:
            user = User._default_manager.get_by_natural_key(username)
        except User.DoesNotExist:
            User().set_password(password)  # the same work as a wrong password
            raise PermissionDenied from None
        if not user.check_password(password):
            raise PermissionDenied
        return user
