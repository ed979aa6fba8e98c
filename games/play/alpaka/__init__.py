"""Alpaka's play package: definition, presenter, templates, example verifiers."""
