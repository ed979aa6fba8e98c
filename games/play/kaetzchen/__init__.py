"""Kätzchen-Angeln's play package: definition, demo board, statistics, templates."""
