"""Pure-Python game engines.

Every engine is a module (or package) in this folder that uses only the standard
library and never imports Django: the site depends on the engines, never the
reverse. See ``base`` for the protocol all turn-based engines follow.
"""
