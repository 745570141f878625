"""The pure core: the state model, input validation, every state transition,
the merge of diverged states and the recovery report.

Data in, data out: nothing here starts a process, reads or writes a file,
parses YAML or talks to git, so a test of any rule needs nothing but Python.
"""
