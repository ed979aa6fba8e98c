"""The Django app of a game's play package (``games/play/<key>/``).

Each package's ``apps.py`` subclasses ``GamePackageConfig`` and names its
definition; the app's name and label follow from the package, and ``ready``
registers the definition – listing the app in ``INSTALLED_APPS`` is all a game
needs.
"""

from __future__ import annotations

from importlib import import_module

from django.apps import AppConfig

from games.play.definition import register


class GamePackageConfig(AppConfig):
    # The ``GameDefinition`` in the package's ``definition`` module.
    definition: str = ""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        package = cls.__module__.rpartition(".")[0]
        cls.name = package
        cls.label = "play_" + package.rpartition(".")[2]

    def ready(self):
        register(getattr(import_module(f"{self.name}.definition"), self.definition))
