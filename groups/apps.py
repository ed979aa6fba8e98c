from django.apps import AppConfig, apps


class GroupsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "groups"
    verbose_name = "Spielegruppen"

    def ready(self):
        from groups import receivers  # noqa: F401  (guest memberships join the account on login)

        if apps.is_installed("accounts"):
            from accounts import personal_data
            from accounts.sections import MyAreaSection, register
            from groups.my_area import my_groups
            from groups.my_area import personal_data as group_data

            personal_data.register("spielegruppen", group_data)

            register(
                MyAreaSection(
                    key="spielegruppen",
                    title="Meine Spielegruppen",
                    template="groups/my_area.html",
                    context=my_groups,
                    order=10,
                )
            )
