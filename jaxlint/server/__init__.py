"""``jaxlint server``: a Language Server (LSP over stdio) for editors.

pygls and lsprotocol are an optional extra (``jaxlinter[lsp]``): only ``app.py`` (and
``protocol.py``, which only ``app.py`` imports) import them, and ``cli.py`` turns their
absence into one clear error line.

- ``linting.py``: the settings of a document and its full lint (the same engine,
  settings and noqa handling as ``jaxlint check``; a rule crash or a bad config
  becomes one diagnostic);
- ``incremental.py``: the fast pass after an edit (only the top-level statements it
  touched and the module-level ones are linted);
- ``worker.py``: the full lint after an edit, in a second process (which ends with
  the server);
- ``notebooks.py``: notebooks through LSP notebook document sync (the cells kept in
  order, linted as one module as ``jaxlint check`` does, findings mapped to cells);
- ``actions.py``: quick fixes, fix-all and "disable for this line" as text edits;
- ``hover.py``: the rule's short docs, the message and the filled-in verify command;
- ``options.py``: client initialization options;
- ``protocol.py``: an answer to every request (bad params, after ``shutdown``);
- ``app.py``: the pygls wiring.
"""
