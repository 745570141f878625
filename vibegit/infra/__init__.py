"""The infrastructure: everything that touches git, files or other programs.

``git`` starts git (through ``gitlite``'s processes); ``store`` the only writer of the
state ref; ``formats/`` parses and renders the state files; ``mirror``,
``snapshot``, ``remote``, ``secretscan``, ``userhooks``, ``hookfiles``,
``agentfiles``, ``worktree`` and ``fs`` each keep one concern. Modules here
import the core, never the application above.
"""
