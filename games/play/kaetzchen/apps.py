from games.play import package


class KaetzchenPlayConfig(package.GamePackageConfig):
    verbose_name = "Kätzchen-Angeln (Spiel)"
    definition = "KAETZCHEN"
