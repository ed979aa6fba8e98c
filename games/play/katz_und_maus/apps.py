from games.play import package


class KatzUndMausPlayConfig(package.GamePackageConfig):
    verbose_name = "Katz und Maus (Spiel)"
    definition = "KATZ_UND_MAUS"
