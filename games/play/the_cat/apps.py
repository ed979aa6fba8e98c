from games.play import package


class TheCatPlayConfig(package.GamePackageConfig):
    verbose_name = "The Cat (Spiel)"
    definition = "THE_CAT"
