"""The commands: one small function per command, grouped by what they act on
(``workflow``, ``task``, ``context``, ``checkpoint``, ``resume``, ``status``,
``memory``, ``learn``, ``sync``, ``doctor``, ``install``, ``instructions``,
``demo``). Each gathers facts, applies the rules through the app pipeline,
says what happened and returns an exit code; the CLI only parses arguments.
"""
