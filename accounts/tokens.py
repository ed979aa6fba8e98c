"""The e-mail confirmation link: Django's token generator with its own salt.

The hash covers ``is_active``, so a link stops working once the account is confirmed;
it also expires after settings.PASSWORD_RESET_TIMEOUT (three days by default).
"""

from django.contrib.auth.tokens import PasswordResetTokenGenerator


class ConfirmationTokenGenerator(PasswordResetTokenGenerator):
    key_salt = "accounts.tokens.ConfirmationTokenGenerator"

    def _make_hash_value(self, user, timestamp):
        return f"{user.pk}{user.password}{user.is_active}{timestamp}{user.email}"


confirmation_token = ConfirmationTokenGenerator()
