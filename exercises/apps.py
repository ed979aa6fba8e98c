from django.apps import AppConfig


class ExercisesConfig(AppConfig):
    name = "exercises"
    verbose_name = "Üben"

    def ready(self):
        from accounts import personal_data, services
        from accounts.sections import MyAreaSection, register
        from exercises import progress

        register(
            MyAreaSection(
                key="ueben",
                title="Geübte Regeln",
                template="exercises/my_area.html",
                context=progress.my_area,
                order=35,
            )
        )
        personal_data.register("uebungen", progress.personal_data, erase=progress.erase)
        services.register_mover("uebungen", progress.move)
