"""The play layer: one definition per game, read by every shared layer.

``games.play.definition`` holds the record (``GameDefinition``) and the
registry. Each game brings a play package of its own (``games/play/<key>/``,
a Django app: definition, presenter, templates, static files, example
verifiers, statistics) and registers its definition from ``AppConfig.ready``;
adding the app to ``INSTALLED_APPS`` is the one registration a game needs.
"""
