"""Files: the one way every layer reads, writes and keeps its files.

Owns the one reading path for every file the project did not write itself (``reading``:
regular files only, bounded, located errors), the one writer (``writing``: a whole file
replaced atomically, regular files or new paths only), YAML read with positions for
``file:line:column`` messages (``yamlpos``), the folder a learner's data lives in (``home``:
``$PEPPER_TUTOR_HOME``, else ``$XDG_DATA_HOME/pepper-tutor``, else
``~/.local/share/pepper-tutor``; in a browser tab kept in IndexedDB by ``browser_home`` where
nobody else keeps it, as in JupyterLite) and the SQLite foundation under the stores (``database``:
connection settings, the ``BEGIN IMMEDIATE`` transaction, the damaged-file check and the
set-aside policy), and what this Python may start (``runtime``: no threads or processes in a
browser tab).

May import: the standard library only (``yamlpos`` imports PyYAML inside its functions, when
a YAML file is read). It sits below the engine so that every layer has the one way.
"""
