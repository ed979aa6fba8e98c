from games.play import package


class AlpakaPlayConfig(package.GamePackageConfig):
    verbose_name = "Alpaka (Spiel)"
    definition = "ALPAKA"
