from games.play import package


class TakeawayConfig(package.GamePackageConfig):
    definition = "TAKEAWAY"
